//! `PUT/GET /v1/teams/{team}`, and cross-team isolation on every team-scoped route.

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api};
use crate::errors::{invalid_fields, problem};

#[sqlx::test]
async fn put_team_creates_with_defaults_then_updates(pool: PgPool) {
    let api = Api::new(pool);
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({})).await;
    let created = reply.expect(201, None).clone();
    assert_eq!(created["id"], "alpha");
    assert_eq!(created["display_name"], Value::Null);
    assert_eq!(created["policy"], json!({ "profile": "standard", "required_approvals": 1 }));
    assert!(created["created_at"].is_string() && created["updated_at"].is_string());

    let reply = api
        .put(
            "/v1/teams/alpha",
            ADMIN,
            json!({ "display_name": "Alpha", "policy": { "profile": "waza", "required_approvals": 2 } }),
        )
        .await;
    let updated = reply.expect(200, None);
    assert_eq!(updated["id"], "alpha");
    assert_eq!(updated["display_name"], "Alpha");
    assert_eq!(updated["policy"], json!({ "profile": "waza", "required_approvals": 2 }));
    assert_eq!(updated["created_at"], created["created_at"]);
}

#[sqlx::test]
async fn put_team_update_keeps_absent_fields(pool: PgPool) {
    let api = Api::new(pool);
    api.put(
        "/v1/teams/alpha",
        ADMIN,
        json!({ "display_name": "Alpha", "policy": { "profile": "waza", "required_approvals": 3 } }),
    )
    .await
    .expect(201, None);

    // No fields at all: nothing changes.
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({})).await;
    let team = reply.expect(200, None);
    assert_eq!(team["display_name"], "Alpha");
    assert_eq!(team["policy"], json!({ "profile": "waza", "required_approvals": 3 }));

    // Only the display name.
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "display_name": "The A team" })).await;
    let team = reply.expect(200, None);
    assert_eq!(team["display_name"], "The A team");
    assert_eq!(team["policy"], json!({ "profile": "waza", "required_approvals": 3 }));

    // Only one policy field: the other policy field and the name stay.
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "required_approvals": 1 } })).await;
    let team = reply.expect(200, None);
    assert_eq!(team["display_name"], "The A team");
    assert_eq!(team["policy"], json!({ "profile": "waza", "required_approvals": 1 }));
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "profile": "standard" } })).await;
    assert_eq!(reply.expect(200, None)["policy"], json!({ "profile": "standard", "required_approvals": 1 }));

    // And GET shows what was stored.
    let team = api.get("/v1/teams/alpha", ADMIN).await;
    let team = team.expect(200, None);
    assert_eq!(team["display_name"], "The A team");
    assert_eq!(team["policy"], json!({ "profile": "standard", "required_approvals": 1 }));
}

#[sqlx::test]
async fn put_team_validates_the_policy(pool: PgPool) {
    let api = Api::new(pool);
    let cases = [
        (json!({ "policy": { "profile": "strict" } }), "policy.profile"),
        (json!({ "policy": { "profile": 1 } }), "policy.profile"),
        (json!({ "policy": { "required_approvals": 0 } }), "policy.required_approvals"),
        (json!({ "policy": { "required_approvals": -1 } }), "policy.required_approvals"),
        (json!({ "policy": { "required_approvals": 101 } }), "policy.required_approvals"),
        (json!({ "policy": { "required_approvals": 1.5 } }), "policy.required_approvals"),
        (json!({ "policy": "waza" }), "policy"),
        (json!({ "display_name": "   " }), "display_name"),
        (json!({ "display_name": "x".repeat(201) }), "display_name"),
        (json!({ "display_name": "bell\u{7}" }), "display_name"),
    ];
    for (body, field) in &cases {
        let reply = api.put("/v1/teams/alpha", ADMIN, body.clone()).await;
        assert_eq!(invalid_fields(&reply), [*field], "{body}");
    }
    problem(&api.get("/v1/teams/alpha", ADMIN).await, 404, "not_found");

    // The same refusals on update, leaving the team unchanged.
    api.team("alpha", json!({ "profile": "waza", "required_approvals": 2 })).await;
    for (body, field) in &cases {
        let reply = api.put("/v1/teams/alpha", ADMIN, body.clone()).await;
        assert_eq!(invalid_fields(&reply), [*field], "{body}");
    }
    let team = api.get("/v1/teams/alpha", ADMIN).await;
    assert_eq!(team.expect(200, None)["policy"], json!({ "profile": "waza", "required_approvals": 2 }));

    // Every fault is reported at once.
    let reply = api
        .put("/v1/teams/Alpha", ADMIN, json!({ "display_name": "", "policy": { "required_approvals": 0 } }))
        .await;
    assert_eq!(invalid_fields(&reply), ["team", "display_name", "policy.required_approvals"]);

    // The bounds themselves are accepted.
    for n in [1, 100] {
        let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "required_approvals": n } })).await;
        assert_eq!(reply.expect(200, None)["policy"]["required_approvals"], n);
    }
}

#[sqlx::test]
async fn team_ids_are_slugs(pool: PgPool) {
    let api = Api::new(pool);
    let too_long = "a".repeat(64);
    for bad in ["Alpha", "-alpha", "al_pha", "al.pha", "%C3%A9quipe", "a%20b", too_long.as_str()] {
        let reply = api.put(&format!("/v1/teams/{bad}"), ADMIN, json!({})).await;
        assert_eq!(invalid_fields(&reply), ["team"], "{bad}");
    }
    let longest = "a".repeat(63);
    for good in ["a", "0", "team-1", "9-lives", longest.as_str()] {
        let reply = api.put(&format!("/v1/teams/{good}"), ADMIN, json!({})).await;
        assert_eq!(reply.expect(201, None)["id"], good);
    }
}

#[sqlx::test]
async fn only_the_server_admin_creates_teams(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let admin = api.token("alpha", "admin").await;
    let coordinator = api.token("alpha", "coordinator").await;

    // A team's admin token cannot create another team: it sees no such team.
    let reply = api.put("/v1/teams/beta", &admin, json!({})).await;
    problem(&reply, 404, "not_found");
    let reply = api.put("/v1/teams/beta", &coordinator, json!({})).await;
    problem(&reply, 404, "not_found");
    problem(&api.get("/v1/teams/beta", ADMIN).await, 404, "not_found");

    // A coordinator may not change its own team's settings.
    let reply = api.put("/v1/teams/alpha", &coordinator, json!({ "display_name": "Mine" })).await;
    problem(&reply, 403, "forbidden");
    let read = api.token("alpha", "read").await;
    let user = api.token("alpha", "user").await;
    for token in [&read, &user] {
        let reply = api.put("/v1/teams/alpha", token, json!({})).await;
        problem(&reply, 403, "forbidden");
    }

    // The team's admin token may.
    let reply = api.put("/v1/teams/alpha", &admin, json!({ "display_name": "Ours" })).await;
    assert_eq!(reply.expect(200, None)["display_name"], "Ours");
}

#[sqlx::test]
async fn get_team_with_a_read_token(pool: PgPool) {
    let api = Api::new(pool);
    let created = api.team("alpha", json!({ "profile": "waza", "required_approvals": 2 })).await;
    let read = api.token("alpha", "read").await;
    let reply = api.get("/v1/teams/alpha", &read).await;
    assert_eq!(reply.expect(200, None), &created);
    for scope in ["coordinator", "user", "admin"] {
        let token = api.token("alpha", scope).await;
        assert_eq!(api.get("/v1/teams/alpha", &token).await.ok(), &created);
    }
    problem(&api.get("/v1/teams/beta", ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn another_teams_token_sees_not_found_everywhere(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.team("beta", Value::Null).await;
    api.agent("alpha", "ann", json!({})).await;
    let alpha_token =
        api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "ci", "scope": "read" })).await;
    let alpha_token = alpha_token.expect(201, None);
    let alpha_token_id = alpha_token["id"].as_str().unwrap();
    let alpha_secret = alpha_token["token"].as_str().unwrap();

    let agent = json!({ "display_name": "Mallory" });
    let token = json!({ "name": "x", "scope": "admin" });
    let token_path = format!("/v1/teams/alpha/tokens/{alpha_token_id}");
    let routes: Vec<(Method, &str, Option<Value>)> = vec![
        (Method::GET, "/v1/teams/alpha", None),
        (Method::PUT, "/v1/teams/alpha", Some(json!({}))),
        (Method::GET, "/v1/teams/alpha/agents", None),
        (Method::GET, "/v1/teams/alpha/agents/ann", None),
        (Method::PUT, "/v1/teams/alpha/agents/ann", Some(agent.clone())),
        (Method::PUT, "/v1/teams/alpha/agents/eve", Some(agent)),
        (Method::GET, "/v1/teams/alpha/tokens", None),
        (Method::POST, "/v1/teams/alpha/tokens", Some(token)),
        (Method::DELETE, &token_path, None),
    ];
    for scope in ["read", "coordinator", "user", "admin"] {
        let beta = api.token("beta", scope).await;
        for (method, path, body) in &routes {
            let reply = api.send(method.clone(), path, Some(&beta), body.clone()).await;
            assert_eq!(reply.status, 404, "{scope} {method} {path}: {}", reply.body);
            problem(&reply, 404, "not_found");
        }
    }
    // It looks exactly like a team that does not exist.
    let beta = api.token("beta", "admin").await;
    let other = api.get("/v1/teams/alpha", &beta).await;
    let missing = api.get("/v1/teams/gamma", &beta).await;
    assert_eq!(other.body["detail"].as_str().unwrap().replace("alpha", "gamma"), missing.body["detail"]);

    // Nothing changed in alpha: the agent, the token and the team are as they were.
    let ann = api.get("/v1/teams/alpha/agents/ann", ADMIN).await;
    assert_eq!(ann.expect(200, None)["display_name"], Value::Null);
    problem(&api.get("/v1/teams/alpha/agents/eve", ADMIN).await, 404, "not_found");
    api.get("/v1/teams/alpha", alpha_secret).await.expect(200, None);
    let tokens = api.get("/v1/teams/alpha/tokens", ADMIN).await;
    assert_eq!(tokens.expect(200, None)["items"].as_array().unwrap().len(), 1);
}

/// Every write takes the team's next event seq, but from the team's own counter row: the team
/// row, read by nearly every request, is not rewritten by writes that leave the team's settings
/// alone. A team inserted by any means has its counter.
#[sqlx::test]
async fn writes_take_the_event_seq_without_rewriting_the_team_row(pool: PgPool) {
    let t = crate::examples::Team::new(pool.clone(), Value::Null, &["a", "b"]).await;
    let team_version = || sqlx::query_scalar::<_, String>("select xmin::text from teams where id = 't'");
    let seq = || sqlx::query_scalar::<_, i64>("select last_event_seq from team_seqs where team_id = 't'");
    let (before, seq_before) =
        (team_version().fetch_one(&pool).await.unwrap(), seq().fetch_one(&pool).await.unwrap());

    t.create("auth", "a").await.expect(201, None);
    let events = t.api.get(&t.url(&format!("/events?after={seq_before}")), &t.coord).await;
    assert_eq!(events.expect(200, None)["items"][0]["seq"], seq_before + 1);
    assert_eq!(seq().fetch_one(&pool).await.unwrap(), seq_before + 1, "the write took the next seq");
    assert_eq!(team_version().fetch_one(&pool).await.unwrap(), before, "the team row was not rewritten");

    sqlx::query("insert into teams (id) values ('direct')").execute(&pool).await.unwrap();
    let direct: i64 = sqlx::query_scalar("select last_event_seq from team_seqs where team_id = 'direct'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(direct, 0);
}
