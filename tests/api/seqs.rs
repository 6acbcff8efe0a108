//! R18: every write to a team answers the seq of the event it committed in `Reviewlock-Seq`, so
//! a client can wait for a read or an event poll at or past it; a replay answers the same seq,
//! a refusal none, and a server-wide write (no team's log records it) none.

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Reply};
use crate::examples::Team;

/// The reply's `Reviewlock-Seq`, if any.
fn seq(reply: &Reply) -> Option<i64> {
    reply.headers.get("reviewlock-seq").map(|v| v.to_str().unwrap().parse().expect("an integer seq"))
}

/// Asserts that `reply` succeeded and that its `Reviewlock-Seq` is the seq of the one event the
/// team logged since `after`, of type `kind`; returns that seq.
async fn committed(t: &Team, after: i64, reply: &Reply, kind: &str, what: &str) -> i64 {
    assert!(reply.status.is_success(), "{what}: {} {}", reply.status, reply.body);
    let header = seq(reply).unwrap_or_else(|| panic!("{what}: no Reviewlock-Seq"));
    let page = t.api.get(&t.url(&format!("/events?after={after}")), &t.coord).await;
    let items = page.expect(200, None)["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 1, "{what} logged one event: {items:?}");
    assert_eq!(items[0]["seq"].as_i64(), Some(header), "{what}: the header is its event's seq");
    assert_eq!(items[0]["type"], kind, "{what}: the event is the write's");
    assert!(header > after, "{what}: seqs increase");
    header
}

async fn last(t: &Team) -> i64 {
    t.api.get(&t.url("/events?limit=500"), &t.coord).await.expect(200, None)["next_after"].as_i64().unwrap()
}

#[sqlx::test]
async fn every_write_answers_the_seq_of_the_event_it_committed(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let mut after = last(&t).await;
    let team = t.api.put("/v1/teams/t", ADMIN, json!({ "policy": { "required_approvals": 1 } })).await;
    after = committed(&t, after, &team, "team.updated", "put team").await;
    let agent = t
        .api
        .put(
            &t.url("/agents/d"),
            ADMIN,
            json!({ "roles": ["tester"], "can_review": true, "can_author": false }),
        )
        .await;
    after = committed(&t, after, &agent, "agent.created", "put agent").await;
    let token = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "reader", "scope": "read" })).await;
    after = committed(&t, after, &token, "token.created", "create token").await;
    let id = token.ok()["id"].as_str().unwrap().to_owned();
    let revoked = t.api.delete(&t.url(&format!("/tokens/{id}")), ADMIN).await;
    after = committed(&t, after, &revoked, "token.revoked", "revoke token").await;
    after = committed(&t, after, &t.create("m", "a").await, "artifact.created", "create").await;
    let rejected = t.reject("m", 1, json!({ "action": "reassign" })).await;
    after = committed(&t, after, &rejected, "review.rejected", "review").await;
    after = committed(&t, after, &t.assign("m", "b").await, "assignment.created", "assign").await;
    let released = t.api.delete(&t.url("/artifacts/m/assignment"), &t.coord).await;
    committed(&t, after, &released, "assignment.released", "release").await;
    t.assign("m", "b").await.expect(201, None);
    after = last(&t).await;
    let version = t.version("m", json!({ "author": "b" })).await;
    committed(&t, after, &version, "version.submitted", "submit version").await;
    // Rejected until nobody is left: deadlocked; the user lifts a lockout, then abandons it.
    t.reject("m", 2, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("m", "c").await.expect(201, None);
    t.version("m", json!({ "author": "c" })).await.expect(201, None);
    t.reject("m", 3, json!({ "action": "reassign" })).await.expect(201, None);
    assert_eq!(t.status("m").await["state"], "deadlocked");
    after = last(&t).await;
    let lift = t.api.post(&t.url("/artifacts/m/lockouts/a/lift"), &t.user, json!({ "reason": "ok" })).await;
    after = committed(&t, after, &lift, "lockout.lifted", "lift").await;
    let body = json!({ "action": "abandon", "reason": "not needed" });
    let resolved = t.api.post(&t.url("/artifacts/m/resolution"), &t.user, body).await;
    committed(&t, after, &resolved, "escalation.resolved", "resolve").await;
}

#[sqlx::test]
async fn a_replay_answers_the_first_seq_and_a_refusal_none(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let send = |method: Method, path: String, body: Option<Value>, key: &'static str| {
        let api = &t.api;
        async move { api.send_with(method, &path, Some(ADMIN), body, &[("idempotency-key", key)]).await }
    };
    let after = last(&t).await;
    let body = json!({ "key": "m", "title": "M", "author": "a", "ref": "r1" });
    let first = send(Method::POST, t.url("/artifacts"), Some(body.clone()), "create-m").await;
    let created = committed(&t, after, &first, "artifact.created", "create").await;
    // Another write moves the team's seq on; the replay still answers the first one's.
    t.create("n", "b").await.expect(201, None);
    let again = send(Method::POST, t.url("/artifacts"), Some(body.clone()), "create-m").await;
    assert_eq!(again.headers.get("idempotency-replayed").map(|v| v.to_str().unwrap()), Some("true"));
    assert_eq!(seq(&again), Some(created), "a replay answers the seq its first request committed");

    // A removal (204) replays its seq too.
    let token = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "ci", "scope": "read" })).await;
    let path = t.url(&format!("/tokens/{}", token.ok()["id"].as_str().unwrap()));
    let after = last(&t).await;
    let revoked = send(Method::DELETE, path.clone(), None, "revoke-ci").await;
    let revoked_seq = committed(&t, after, &revoked, "token.revoked", "revoke token").await;
    let again = send(Method::DELETE, path, None, "revoke-ci").await;
    assert_eq!((again.status.as_u16(), seq(&again)), (204, Some(revoked_seq)));

    // A refusal commits nothing and answers no seq.
    let before = last(&t).await;
    let refused = t.api.post(&t.url("/artifacts"), &t.coord, body).await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert_eq!(seq(&refused), None, "a refusal has no seq");
    assert_eq!(last(&t).await, before);

    // A server-wide token write logs no team's event: no seq.
    let server = t.api.post("/v1/tokens", ADMIN, json!({ "name": "ops" })).await;
    assert_eq!(server.status.as_u16(), 201, "{}", server.body);
    assert_eq!(seq(&server), None, "a server-wide write has no team seq");
}
