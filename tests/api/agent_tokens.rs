//! Agent-bound tokens: `scope: "agent"` names one agent; such a token reads its team and acts
//! only as that agent (its versions, its reviews, checks about it). Every event records the
//! token that made it.

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

use crate::common::{ADMIN, Reply};
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

/// Creates an agent token for `agent`; returns (id, secret).
async fn agent_token(t: &Team, name: &str, agent: &str) -> (String, String) {
    let body = json!({ "name": name, "scope": "agent", "agent": agent });
    let reply = t.api.post(&t.url("/tokens"), ADMIN, body).await;
    let created = reply.expect(201, None);
    assert_eq!(created["scope"], "agent");
    assert_eq!(created["agent"], agent);
    assert_eq!(created["name"], name);
    (created["id"].as_str().unwrap().to_owned(), created["token"].as_str().unwrap().to_owned())
}

#[track_caller]
fn forbidden(reply: &Reply) {
    problem(reply, 403, "forbidden");
}

#[sqlx::test]
async fn an_agent_token_names_an_existing_agent_and_only_with_scope_agent(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let (id, _) = agent_token(&t, "a-bot", "a").await;
    let list = t.api.get(&t.url("/tokens"), ADMIN).await;
    let items = list.expect(200, None)["items"].as_array().unwrap().clone();
    let listed = items.iter().find(|i| i["id"] == id.as_str()).expect("the token is listed");
    assert_eq!(
        (&listed["scope"], &listed["agent"], &listed["name"]),
        (&json!("agent"), &json!("a"), &json!("a-bot"))
    );
    assert!(listed.get("token").is_none(), "no secret in the list");
    for other in items.iter().filter(|i| i["id"] != id.as_str()) {
        assert!(other.get("agent").is_none(), "other scopes name no agent: {other}");
    }

    let before = t.api.footprint().await;
    let tokens = t.url("/tokens");
    let refusals = [
        json!({ "name": "x", "scope": "agent" }),
        json!({ "name": "x", "scope": "agent", "agent": null }),
        json!({ "name": "x", "scope": "agent", "agent": "nobody" }),
        json!({ "name": "x", "scope": "agent", "agent": "Not A Slug" }),
        json!({ "name": "x", "scope": "coordinator", "agent": "a" }),
        json!({ "name": "x", "scope": "read", "agent": "a" }),
        json!({ "name": "x", "scope": "user", "agent": "a" }),
        json!({ "name": "x", "scope": "admin", "agent": "a" }),
    ];
    for body in refusals {
        let reply = t.api.post(&tokens, ADMIN, body.clone()).await;
        assert_eq!(invalid_fields(&reply), ["agent"], "{body}");
    }
    // Another team's agent is unknown here.
    t.api.team("u", Value::Null).await;
    t.api.agent("u", "z", json!({})).await;
    let reply = t.api.post(&tokens, ADMIN, json!({ "name": "x", "scope": "agent", "agent": "z" })).await;
    assert_eq!(invalid_fields(&reply), ["agent"]);
    // Only an admin creates one.
    let coord = t.api.post(&tokens, &t.coord, json!({ "name": "x", "scope": "agent", "agent": "a" })).await;
    forbidden(&coord);
    let after = t.api.footprint().await;
    assert_eq!(after[12], before[12], "no token created");
    assert_eq!(after[0], before[0] + 2, "only team u and its agent wrote events");
}

#[sqlx::test]
async fn an_agent_token_reads_its_team(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "b").await.expect(201, None);
    let (_, ta) = agent_token(&t, "a-bot", "a").await;
    for path in [
        "/artifacts/m",
        "/artifacts/m/versions",
        "/artifacts/m/versions/1",
        "/artifacts",
        "/agents",
        "/agents/b",
        "/lockouts",
        "/escalations",
        "/events",
        "",
    ] {
        t.api.get(&t.url(path), &ta).await.expect(200, None);
    }
    // Not another team's, and not the token list.
    t.api.team("u", Value::Null).await;
    problem(&t.api.get("/v1/teams/u/artifacts", &ta).await, 404, "not_found");
    forbidden(&t.api.get(&t.url("/tokens"), &ta).await);
}

#[sqlx::test]
async fn an_agent_token_acts_only_as_its_agent(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.api.agent("t", "r", json!({ "can_review": true, "can_author": false })).await;
    let (_, ta) = agent_token(&t, "a-bot", "a").await;
    let (_, tb) = agent_token(&t, "b-bot", "b").await;
    let (_, tq) = agent_token(&t, "q-bot", "q").await;
    let artifacts = t.url("/artifacts");

    // Creating an artifact is writing its version 1: as itself only.
    let before = t.api.footprint().await;
    forbidden(&t.api.post(&artifacts, &ta, json!({ "key": "m", "title": "m", "author": "b" })).await);
    assert_eq!(t.api.footprint().await, before);
    t.api.post(&artifacts, &ta, json!({ "key": "m", "title": "m", "author": "a" })).await.expect(201, None);

    // Reviews: its own verdict only.
    let reviews = t.url("/artifacts/m/versions/1/reviews");
    let reject = |reviewer: &str| json!({ "reviewer": reviewer, "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } });
    let before = t.api.footprint().await;
    forbidden(&t.api.post(&reviews, &tq, reject("r")).await);
    forbidden(&t.api.post(&reviews, &tb, reject("q")).await);
    assert_eq!(t.api.footprint().await, before, "refused reviews record nothing");
    let rejected = t.api.post(&reviews, &tq, reject("q")).await;
    assert_eq!(rejected.expect(201, None)["artifact"]["state"], "changes_requested");

    // It cannot assign, release, create tokens, change agents, resolve or lift.
    let before = t.api.footprint().await;
    let assignment = t.url("/artifacts/m/assignment");
    forbidden(&t.api.post(&assignment, &tb, json!({ "agent": "b" })).await);
    t.assign("m", "b").await.expect(201, None);
    let mid = t.api.footprint().await;
    forbidden(&t.api.delete(&assignment, &tb).await);
    forbidden(&t.api.post(&t.url("/tokens"), &tb, json!({ "name": "x", "scope": "read" })).await);
    forbidden(&t.api.put(&t.url("/agents/b"), &tb, json!({ "can_review": true })).await);
    forbidden(&t.api.put(&t.url("/agents/new"), &tb, json!({})).await);
    forbidden(&t.api.put(&t.url(""), &tb, json!({ "display_name": "mine" })).await);
    let resolution = t.url("/artifacts/m/resolution");
    forbidden(&t.api.post(&resolution, &tb, json!({ "action": "abandon", "reason": "x" })).await);
    forbidden(&t.api.post(&t.url("/artifacts/m/lockouts/a/lift"), &ta, json!({ "reason": "x" })).await);
    forbidden(&t.api.post(&t.url("/artifacts/m/lockouts/a/lift"), &tb, json!({ "reason": "x" })).await);
    let list = t.api.get(&t.url("/tokens"), ADMIN).await;
    let some_id = list.body["items"][0]["id"].as_str().unwrap().to_owned();
    forbidden(&t.api.delete(&t.url(&format!("/tokens/{some_id}")), &tb).await);
    assert_eq!(t.api.footprint().await, mid, "nothing changed but the coordinator's assignment");
    assert_ne!(mid, before);

    // Checks: about itself only.
    let checks = t.url("/checks");
    let own = t.api.post(&checks, &ta, json!({ "agent": "a", "artifact": "m" })).await;
    assert_eq!(own.expect(200, None)["allowed"], false, "a is locked out");
    assert_eq!(own.body["denials"][0]["code"], "agent_locked_out");
    let own = t.api.post(&checks, &tb, json!({ "agent": "b", "artifact": "m" })).await;
    assert_eq!(own.expect(200, None)["allowed"], true, "b is the assignee");
    forbidden(&t.api.post(&checks, &ta, json!({ "agent": "b", "artifact": "m" })).await);
    forbidden(&t.api.post(&checks, &tb, json!({ "agent": "a", "paths": ["src/x.rs"] })).await);
    // Without an agent, an agent token asks about its own; any other token asks for a writer it
    // cannot name (R16): refused where a lockout covers, here `a`'s.
    let unnamed = t.api.post(&checks, &ta, json!({ "artifact": "m" })).await;
    assert_eq!(unnamed.expect(200, None)["denials"][0]["code"], "agent_locked_out", "asked as a");
    let unnamed = t.api.post(&checks, &tb, json!({ "artifact": "m" })).await;
    assert_eq!(unnamed.expect(200, None)["allowed"], true, "asked as b");
    let coordinator = t.api.post(&checks, &t.coord, json!({ "artifact": "m" })).await;
    let coordinator = coordinator.expect(200, None);
    assert_eq!(coordinator["agent"], Value::Null);
    assert_eq!(coordinator["denials"][0]["code"], "unknown_writer", "{coordinator}");
    // Nor may an agent token name another agent by an alias.
    let alias = json!({ "aliases": ["b@example.com"] });
    t.api.put(&t.url("/agents/b"), &t.coord, alias).await.expect(200, None);
    forbidden(&t.api.post(&checks, &ta, json!({ "alias": "b@example.com", "artifact": "m" })).await);

    // Versions: only those it authors (as the assignee).
    let versions = t.url("/artifacts/m/versions");
    let before = t.api.footprint().await;
    forbidden(&t.api.post(&versions, &ta, json!({ "author": "b" })).await);
    problem(&t.api.post(&versions, &ta, json!({ "author": "a" })).await, 409, "agent_locked_out");
    assert_eq!(t.api.footprint().await, before);
    let v2 = t.api.post(&versions, &tb, json!({ "author": "b", "ref": "r2" })).await;
    assert_eq!(v2.expect(201, None)["author"], "b");

    // An approval it gives.
    let approve = json!({ "reviewer": "q", "verdict": "approve" });
    forbidden(&t.api.post(&t.url("/artifacts/m/versions/2/reviews"), &tb, approve.clone()).await);
    let approved = t.api.post(&t.url("/artifacts/m/versions/2/reviews"), &tq, approve).await;
    assert_eq!(approved.expect(201, None)["artifact"]["state"], "approved");

    // A revoked agent token is no token at all.
    let (id, tc) = agent_token(&t, "b-bot-2", "b").await;
    t.api.delete(&t.url(&format!("/tokens/{id}")), ADMIN).await.expect(204, None);
    problem(&t.api.get(&t.url("/artifacts/m"), &tc).await, 401, "unauthenticated");
}

/// An event's type, actor, token id and token name.
type EventTokenRow = (String, Option<String>, Option<Uuid>, Option<String>);

#[sqlx::test]
async fn every_event_records_the_token_that_made_it(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let (tb_id, tb) = agent_token(&t, "b-bot", "b").await;
    let (tq_id, tq) = agent_token(&t, "q-bot", "q").await;
    let list = t.api.get(&t.url("/tokens"), ADMIN).await;
    let coord_id = list.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["scope"] == "coordinator")
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .unwrap();
    let after: i64 = sqlx::query_scalar("select last_event_seq from team_seqs where team_id = 't'")
        .fetch_one(&t.api.pool)
        .await
        .unwrap();

    t.create("m", "a").await.expect(201, None); // coordinator
    let reject =
        json!({ "reviewer": "q", "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } });
    t.api.post(&t.url("/artifacts/m/versions/1/reviews"), &tq, reject).await.expect(201, None);
    t.assign("m", "b").await.expect(201, None); // coordinator
    t.api.post(&t.url("/artifacts/m/versions"), &tb, json!({ "author": "b" })).await.expect(201, None);
    let approve = json!({ "reviewer": "q", "verdict": "approve" });
    t.api.post(&t.url("/artifacts/m/versions/2/reviews"), &tq, approve).await.expect(201, None);
    t.api.agent("t", "c", json!({})).await; // the server admin

    let expected = [
        ("artifact.created", "a", Some(coord_id.as_str()), "coordinator-token"),
        ("review.rejected", "q", Some(tq_id.as_str()), "q-bot"),
        ("assignment.created", "b", Some(coord_id.as_str()), "coordinator-token"),
        ("version.submitted", "b", Some(tb_id.as_str()), "b-bot"),
        ("review.approved", "q", Some(tq_id.as_str()), "q-bot"),
        ("agent.created", "c", None, "server-admin"),
    ];
    // In the database…
    let rows: Vec<EventTokenRow> = sqlx::query_as(
        "select type, actor, token_id, token_name from events where team_id = 't' and seq > $1 order by seq",
    )
    .bind(after)
    .fetch_all(&t.api.pool)
    .await
    .unwrap();
    let rows: Vec<_> = rows
        .iter()
        .map(|(kind, actor, id, name)| {
            (kind.as_str(), actor.as_deref().unwrap(), id.map(|i| i.to_string()), name.as_deref().unwrap())
        })
        .collect();
    let expected_rows: Vec<_> =
        expected.iter().map(|(k, a, id, n)| (*k, *a, id.map(str::to_owned), *n)).collect();
    assert_eq!(rows, expected_rows);
    // …and in the feed, for any reader.
    for reader in [&t.coord, &tb] {
        let page = t.api.get(&t.url(&format!("/events?after={after}")), reader).await;
        let items = page.expect(200, None)["items"].as_array().unwrap().clone();
        let got: Vec<_> = items
            .iter()
            .map(|e| {
                (e["type"].clone(), e["actor"].clone(), e["token"]["id"].clone(), e["token"]["name"].clone())
            })
            .collect();
        let want: Vec<_> =
            expected.iter().map(|(k, a, id, n)| (json!(k), json!(a), json!(id), json!(n))).collect();
        assert_eq!(got, want);
    }
    // Token events name the admin that made them, and the token made in `data`.
    let token_event =
        t.api.send(Method::GET, &t.url("/events?after=0"), Some(&t.coord), None).await.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "token.created" && e["data"]["token_id"] == tb_id.as_str())
            .cloned()
            .expect("b-bot's token.created event");
    assert_eq!(token_event["token"], json!({ "id": null, "name": "server-admin" }));
    assert_eq!(token_event["data"]["agent"], "b");
    assert_eq!(token_event["data"]["scope"], "agent");
}

/// One rejection locks out everyone a version credits, so an agent token credits only its own
/// agent: crediting others (who did not ask to be credited) is 403 and changes nothing, for a
/// new artifact and for a new version alike; a coordinator token may.
#[sqlx::test]
async fn an_agent_token_credits_only_its_own_agent(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a1", "a2", "a3"]).await;
    let (_, token) = agent_token(&t, "a1-bot", "a1").await;
    let before = t.api.footprint().await;
    let crediting = json!({ "key": "m", "title": "M", "author": "a1",
                            "contributors": [{ "agent": "a2", "role": "co_author" }, { "agent": "a3", "role": "pair" }] });
    forbidden(&t.api.post(&t.url("/artifacts"), &token, crediting).await);
    assert_eq!(t.api.footprint().await, before, "a refusal changes nothing");

    let alone = json!({ "key": "m", "title": "M", "author": "a1" });
    t.api.post(&t.url("/artifacts"), &token, alone).await.expect(201, None);
    let before = t.api.footprint().await;
    let version = json!({ "author": "a1", "contributors": [{ "agent": "a2", "role": "advisor" }] });
    forbidden(&t.api.post(&t.url("/artifacts/m/versions"), &token, version.clone()).await);
    assert_eq!(t.api.footprint().await, before, "a refusal changes nothing");
    // The coordinator credits whom it chooses.
    let created = t.api.post(&t.url("/artifacts/m/versions"), &t.coord, version).await;
    assert_eq!(created.expect(201, None)["contributors"][0]["agent"], "a2");
}
