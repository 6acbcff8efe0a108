//! Tokens: create, list, revoke; authentication and what each scope may do.

use axum::body::Body;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api};
use crate::errors::{invalid_fields, problem};

#[sqlx::test]
async fn create_token_returns_its_secret_once(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let reply = api
        .post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "orchestrator", "scope": "coordinator" }))
        .await;
    let created = reply.expect(201, None);
    let secret = created["token"].as_str().unwrap();
    assert!(secret.starts_with("rl_"), "{secret}");
    assert!(secret.len() > 32, "{secret}");
    assert_eq!(created["name"], "orchestrator");
    assert_eq!(created["scope"], "coordinator");
    assert!(created["id"].as_str().unwrap().parse::<uuid::Uuid>().is_ok());
    assert!(created["created_at"].is_string());

    // The new token works as a bearer at once, with its scope.
    api.get("/v1/teams/alpha", secret).await.expect(200, None);
    api.put("/v1/teams/alpha/agents/ann", secret, json!({})).await.expect(201, None);
    let reply = api.get("/v1/teams/alpha/tokens", secret).await;
    problem(&reply, 403, "forbidden");

    // Each token is distinct.
    let other = api.token("alpha", "coordinator").await;
    assert_ne!(other, secret);

    // The secret is stored only as its SHA-256.
    let hashed: bool = sqlx::query_scalar(
        "select secret_hash = sha256(convert_to($1, 'UTF8')) from tokens where id = $2::uuid",
    )
    .bind(secret)
    .bind(created["id"].as_str().unwrap())
    .fetch_one(&api.pool)
    .await
    .unwrap();
    assert!(hashed);
}

#[sqlx::test]
async fn a_team_admin_token_manages_the_teams_tokens(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let admin = api.token("alpha", "admin").await;
    let reply =
        api.post("/v1/teams/alpha/tokens", &admin, json!({ "name": "reader", "scope": "read" })).await;
    let id = reply.expect(201, None)["id"].as_str().unwrap().to_owned();
    api.get("/v1/teams/alpha/tokens", &admin).await.expect(200, None);
    let reply = api.delete(&format!("/v1/teams/alpha/tokens/{id}"), &admin).await;
    reply.expect(204, None);
}

#[sqlx::test]
async fn create_token_validates_its_fields(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let cases = [
        (json!({ "name": "", "scope": "read" }), "name"),
        (json!({ "name": "  ", "scope": "read" }), "name"),
        (json!({ "name": "x".repeat(201), "scope": "read" }), "name"),
        (json!({ "name": "ci", "scope": "root" }), "scope"),
        (json!({ "name": "ci", "scope": "agent" }), "agent"),
        (json!({ "name": "ci", "scope": "agent", "agent": "nobody" }), "agent"),
        (json!({ "name": "ci", "scope": "read", "agent": "nobody" }), "agent"),
        (json!({ "name": "ci", "scope": "Read" }), "scope"),
        (json!({ "name": "ci", "scope": null }), "scope"),
    ];
    for (body, field) in &cases {
        let reply = api.post("/v1/teams/alpha/tokens", ADMIN, body.clone()).await;
        assert_eq!(invalid_fields(&reply), [*field], "{body}");
    }
    let list = api.get("/v1/teams/alpha/tokens", ADMIN).await;
    assert_eq!(list.expect(200, None)["items"], json!([]));

    let reply = api.post("/v1/teams/nowhere/tokens", ADMIN, json!({ "name": "ci", "scope": "read" })).await;
    problem(&reply, 404, "not_found");
}

#[sqlx::test]
async fn list_tokens_shows_no_secrets(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let mut secrets = vec![];
    for scope in ["read", "coordinator", "user", "admin"] {
        secrets.push(api.token("alpha", scope).await);
    }
    api.team("beta", Value::Null).await;
    api.token("beta", "read").await;

    let reply = api.get("/v1/teams/alpha/tokens", ADMIN).await;
    let list = reply.expect(200, None);
    let items = list["items"].as_array().unwrap();
    let scopes: Vec<&str> = items.iter().map(|t| t["scope"].as_str().unwrap()).collect();
    assert_eq!(scopes, ["read", "coordinator", "user", "admin"]);
    for item in items {
        assert_eq!(item["name"], format!("{}-token", item["scope"].as_str().unwrap()));
        let mut keys: Vec<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["created_at", "id", "name", "scope"]);
    }
    // No field anywhere holds a secret, or any part of one.
    let text = list.to_string();
    for secret in &secrets {
        assert!(!text.contains(secret.as_str()), "{text}");
        assert!(!text.contains(&secret[3..]), "{text}");
    }
    assert!(!text.contains("rl_"), "{text}");

    // A team token lists its own team's tokens too.
    let admin = &secrets[3];
    let own = api.get("/v1/teams/alpha/tokens", admin).await;
    assert_eq!(own.expect(200, None)["items"].as_array().unwrap().len(), 4);

    problem(&api.get("/v1/teams/nowhere/tokens", ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn a_revoked_token_is_refused_at_once(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let reply =
        api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "ci", "scope": "coordinator" })).await;
    let created = reply.expect(201, None);
    let id = created["id"].as_str().unwrap();
    let secret = created["token"].as_str().unwrap();
    let keep = api.token("alpha", "read").await;
    api.get("/v1/teams/alpha", secret).await.expect(200, None);

    let path = format!("/v1/teams/alpha/tokens/{id}");
    let reply = api.delete(&path, ADMIN).await;
    reply.expect(204, None);
    assert_eq!(reply.body, Value::Null, "204 has no body");

    problem(&api.get("/v1/teams/alpha", secret).await, 401, "unauthenticated");
    problem(&api.put("/v1/teams/alpha/agents/ann", secret, json!({})).await, 401, "unauthenticated");
    // The other tokens still work, and the list no longer shows it.
    api.get("/v1/teams/alpha", &keep).await.expect(200, None);
    let list = api.get("/v1/teams/alpha/tokens", ADMIN).await;
    let items = list.expect(200, None)["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_ne!(items[0]["id"], id);

    // Revoking it again, or a token that never was, is 404.
    problem(&api.delete(&path, ADMIN).await, 404, "not_found");
    let unknown = format!("/v1/teams/alpha/tokens/{}", uuid::Uuid::new_v4());
    problem(&api.delete(&unknown, ADMIN).await, 404, "not_found");
    let nowhere = format!("/v1/teams/nowhere/tokens/{id}");
    problem(&api.delete(&nowhere, ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn a_token_cannot_be_revoked_through_another_team(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.team("beta", Value::Null).await;
    let reply = api.post("/v1/teams/beta/tokens", ADMIN, json!({ "name": "ci", "scope": "read" })).await;
    let beta = reply.expect(201, None);
    let (id, secret) = (beta["id"].as_str().unwrap(), beta["token"].as_str().unwrap());
    let alpha_admin = api.token("alpha", "admin").await;
    for token in [ADMIN, alpha_admin.as_str()] {
        let reply = api.delete(&format!("/v1/teams/alpha/tokens/{id}"), token).await;
        problem(&reply, 404, "not_found");
    }
    api.get("/v1/teams/beta", secret).await.expect(200, None);
}

#[sqlx::test]
async fn token_routes_need_the_admin_scope(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let admin = api.token("alpha", "admin").await;
    let list = api.get("/v1/teams/alpha/tokens", &admin).await;
    let id = list.expect(200, None)["items"][0]["id"].as_str().unwrap().to_owned();
    for scope in ["read", "coordinator", "user"] {
        let token = api.token("alpha", scope).await;
        let reply =
            api.post("/v1/teams/alpha/tokens", &token, json!({ "name": "escalate", "scope": "admin" })).await;
        problem(&reply, 403, "forbidden");
        problem(&api.get("/v1/teams/alpha/tokens", &token).await, 403, "forbidden");
        problem(&api.delete(&format!("/v1/teams/alpha/tokens/{id}"), &token).await, 403, "forbidden");
    }
    // The admin token survived every attempt.
    api.get("/v1/teams/alpha/tokens", &admin).await.expect(200, None);
}

#[sqlx::test]
async fn scopes_guard_the_agent_routes(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.agent("alpha", "ann", json!({})).await;
    let read = api.token("alpha", "read").await;
    let user = api.token("alpha", "user").await;
    let coordinator = api.token("alpha", "coordinator").await;
    let admin = api.token("alpha", "admin").await;

    // read and user tokens read but may not write agents.
    for token in [&read, &user] {
        for agent in ["ann", "bob"] {
            let reply = api
                .put(&format!("/v1/teams/alpha/agents/{agent}"), token, json!({ "can_review": true }))
                .await;
            problem(&reply, 403, "forbidden");
        }
        api.get("/v1/teams/alpha/agents", token).await.expect(200, None);
        api.get("/v1/teams/alpha/agents/ann", token).await.expect(200, None);
    }
    let ann = api.get("/v1/teams/alpha/agents/ann", &read).await;
    assert_eq!(ann.expect(200, None)["can_review"], false);
    problem(&api.get("/v1/teams/alpha/agents/bob", &read).await, 404, "not_found");

    // coordinator ⊂ admin: both write agents.
    api.put("/v1/teams/alpha/agents/bob", &coordinator, json!({})).await.expect(201, None);
    api.put("/v1/teams/alpha/agents/bob", &admin, json!({ "can_review": true })).await.expect(200, None);
}

#[sqlx::test]
async fn without_a_valid_token_every_v1_route_is_401(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let secret = api.token("alpha", "admin").await;
    let id = uuid::Uuid::new_v4();
    let token_path = format!("/v1/teams/alpha/tokens/{id}");
    let routes: Vec<(Method, &str, Option<Value>)> = vec![
        (Method::GET, "/v1/teams/alpha", None),
        (Method::PUT, "/v1/teams/alpha", Some(json!({}))),
        (Method::PUT, "/v1/teams/nowhere", Some(json!({}))),
        (Method::GET, "/v1/teams/alpha/agents", None),
        (Method::GET, "/v1/teams/alpha/agents/ann", None),
        (Method::PUT, "/v1/teams/alpha/agents/ann", Some(json!({}))),
        (Method::GET, "/v1/teams/alpha/tokens", None),
        (Method::POST, "/v1/teams/alpha/tokens", Some(json!({ "name": "x", "scope": "admin" }))),
        (Method::DELETE, &token_path, None),
    ];
    let wrong_secret = format!("{secret}0");
    let authorizations = [
        None,
        Some("Bearer".to_owned()),
        Some("Bearer ".to_owned()),
        Some("Bearer nope".to_owned()),
        Some(format!("Bearer {wrong_secret}")),
        Some(format!("Basic {secret}")),
        Some(secret.clone()),
        Some(format!("Token {ADMIN}")),
    ];
    for (method, path, body) in &routes {
        for authorization in &authorizations {
            let mut request = Request::builder().method(method.clone()).uri(*path);
            if let Some(value) = authorization {
                request = request.header("authorization", value);
            }
            let body = match body {
                Some(b) => {
                    request = request.header("content-type", "application/json");
                    Body::from(b.to_string())
                }
                None => Body::empty(),
            };
            let reply = api.raw(request.body(body).unwrap()).await;
            assert_eq!(reply.status, 401, "{method} {path} with {authorization:?}: {}", reply.body);
            problem(&reply, 401, "unauthenticated");
        }
    }
    // The scheme is case-insensitive.
    let reply = api
        .raw(
            Request::builder()
                .uri("/v1/teams/alpha")
                .header("authorization", format!("bearer {secret}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    reply.expect(200, None);
    // Nothing was written by any refused request.
    problem(&api.get("/v1/teams/nowhere", ADMIN).await, 404, "not_found");
    problem(&api.get("/v1/teams/alpha/agents/ann", ADMIN).await, 404, "not_found");
}

/// `GET /v1/teams/{team}/token` says which token calls, never its secret; another team's token
/// finds no team there.
#[sqlx::test]
async fn a_token_knows_itself_and_only_in_its_team(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.team("beta", Value::Null).await;
    api.agent("alpha", "ann", json!({ "roles": ["engineer"] })).await;
    let body = json!({ "name": "ann-bot", "scope": "agent", "agent": "ann" });
    let created = api.post("/v1/teams/alpha/tokens", ADMIN, body).await.expect(201, None).clone();
    let secret = created["token"].as_str().unwrap();
    let me = api.get("/v1/teams/alpha/token", secret).await.expect(200, None).clone();
    assert_eq!(
        me,
        json!({ "id": created["id"], "name": "ann-bot", "scope": "agent", "agent": "ann", "server_wide": false })
    );
    let user = api.token("alpha", "user").await;
    assert_eq!(api.get("/v1/teams/alpha/token", &user).await.expect(200, None)["scope"], "user");
    let admin = api.get("/v1/teams/beta/token", ADMIN).await.expect(200, None).clone();
    assert_eq!((admin["id"].clone(), admin["server_wide"].clone()), (Value::Null, json!(true)));
    api.get("/v1/teams/beta/token", secret).await.expect(404, Some("not_found"));
}
