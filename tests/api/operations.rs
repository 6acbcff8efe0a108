//! Health, request ids, the spec and its UI, and the event each write appends.

use axum::body::Body;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api, Reply};
use crate::errors::problem;

async fn anonymous(api: &Api, path: &str) -> Reply {
    api.send(Method::GET, path, None, None).await
}

#[sqlx::test]
async fn healthz_and_readyz_answer_without_auth(pool: PgPool) {
    let api = Api::new(pool);
    let health = anonymous(&api, "/healthz").await;
    health.expect(200, None);
    assert_eq!(health.body, "ok");
    let ready = anonymous(&api, "/readyz").await;
    ready.expect(200, None);
    assert_eq!(ready.body, "ready");
    // A token, even a bad one, changes nothing.
    api.get("/healthz", "garbage").await.expect(200, None);
    api.get("/readyz", "garbage").await.expect(200, None);
}

#[sqlx::test]
async fn every_response_carries_a_request_id(pool: PgPool) {
    let api = Api::new(pool);
    let replies = vec![
        anonymous(&api, "/healthz").await,
        anonymous(&api, "/readyz").await,
        anonymous(&api, "/openapi.json").await,
        anonymous(&api, "/docs/").await,
        anonymous(&api, "/v1/teams/alpha").await,
        anonymous(&api, "/nowhere").await,
        api.put("/v1/teams/alpha", ADMIN, json!({})).await,
        api.put("/v1/teams/Alpha", ADMIN, json!({})).await,
        api.get("/v1/teams/beta", ADMIN).await,
        api.send(Method::DELETE, "/v1/teams/alpha", Some(ADMIN), None).await,
    ];
    let mut ids = std::collections::HashSet::new();
    for reply in &replies {
        let id = reply
            .headers
            .get("x-request-id")
            .unwrap_or_else(|| panic!("no x-request-id on a {} reply", reply.status))
            .to_str()
            .unwrap()
            .to_owned();
        assert!(!id.is_empty());
        assert!(ids.insert(id), "request ids are unique");
    }

    // An incoming request id is kept and echoed.
    for path in ["/healthz", "/v1/teams/alpha", "/nowhere"] {
        let reply = api
            .raw(
                Request::builder()
                    .uri(path)
                    .header("x-request-id", "trace-4711")
                    .header("authorization", format!("Bearer {ADMIN}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(reply.headers["x-request-id"], "trace-4711", "{path}");
    }
}

#[sqlx::test]
async fn the_spec_lists_every_route_and_the_bearer_scheme(pool: PgPool) {
    let api = Api::new(pool);
    let reply = anonymous(&api, "/openapi.json").await;
    let spec = reply.expect(200, None);
    assert!(reply.headers["content-type"].to_str().unwrap().starts_with("application/json"));
    assert!(spec["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(spec, &serde_json::to_value(reviewlock::openapi()).unwrap());

    let paths = spec["paths"].as_object().unwrap();
    let expected: [(&str, &[&str]); 7] = [
        ("/v1/teams/{team}", &["get", "put"]),
        ("/v1/teams/{team}/agents", &["get"]),
        ("/v1/teams/{team}/agents/{agent}", &["get", "put"]),
        ("/v1/teams/{team}/tokens", &["get", "post"]),
        ("/v1/teams/{team}/tokens/{id}", &["delete"]),
        ("/healthz", &["get"]),
        ("/readyz", &["get"]),
    ];
    for (path, methods) in expected {
        let item = paths.get(path).unwrap_or_else(|| panic!("{path} is in the spec"));
        for method in methods {
            let op = &item[*method];
            assert!(op.is_object(), "{method} {path}");
            if path.starts_with("/v1/") {
                assert_eq!(op["security"], json!([{ "bearer": [] }]), "{method} {path}");
                for status in ["401", "403", "404", "422", "500", "503"] {
                    assert!(op["responses"][status].is_object(), "{method} {path} documents {status}");
                }
            } else {
                assert_eq!(op["security"], json!([]), "{path} needs no auth");
            }
        }
    }

    let bearer = &spec["components"]["securitySchemes"]["bearer"];
    assert_eq!(bearer["type"], "http");
    assert_eq!(bearer["scheme"], "bearer");
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    for schema in [
        "Problem",
        "FieldError",
        "Team",
        "TeamInput",
        "Agent",
        "AgentInput",
        "AgentDetail",
        "AgentPage",
        "TokenInput",
        "CreatedToken",
        "TokenList",
    ] {
        assert!(schemas.contains_key(schema), "{schema} is in the spec");
    }
}

#[sqlx::test]
async fn docs_serve_an_offline_ui(pool: PgPool) {
    let api = Api::new(pool);
    let reply = anonymous(&api, "/docs/").await;
    reply.expect(200, None);
    assert!(reply.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = reply.body.as_str().unwrap();
    assert!(html.to_lowercase().contains("swagger"), "{html}");
    // Everything the page loads is served here, not fetched from a CDN.
    assert!(!html.contains("src=\"http"), "{html}");
    assert!(!html.contains("href=\"http"), "{html}");
    for asset in ["swagger-ui-bundle.js", "swagger-ui.css"] {
        assert!(html.contains(asset), "the page loads {asset}");
        let reply = anonymous(&api, &format!("/docs/{asset}")).await;
        reply.expect(200, None);
    }
    let init = anonymous(&api, "/docs/swagger-initializer.js").await;
    init.expect(200, None);
    assert!(init.body.as_str().unwrap().contains("/openapi.json"));

    // Without the slash, a redirect to it.
    let reply = anonymous(&api, "/docs").await;
    assert!(reply.status.is_redirection(), "{}", reply.status);
    assert_eq!(reply.headers["location"], "/docs/");
}

#[sqlx::test]
async fn each_write_appends_exactly_one_event(pool: PgPool) {
    let api = Api::new(pool);
    let events = async |api: &Api| -> Vec<(i64, String)> {
        sqlx::query_as("select seq, type from events where team_id = $1 order by seq")
            .bind("alpha")
            .fetch_all(&api.pool)
            .await
            .unwrap()
    };

    api.team("alpha", Value::Null).await;
    api.put("/v1/teams/alpha", ADMIN, json!({ "display_name": "A" })).await.expect(200, None);
    let reply =
        api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "ci", "scope": "coordinator" })).await;
    let created = reply.expect(201, None);
    let (id, coordinator) =
        (created["id"].as_str().unwrap().to_owned(), created["token"].as_str().unwrap().to_owned());
    api.put("/v1/teams/alpha/agents/ann", &coordinator, json!({})).await.expect(201, None);
    api.put("/v1/teams/alpha/agents/ann", &coordinator, json!({ "roles": ["lead"] })).await.expect(200, None);
    api.delete(&format!("/v1/teams/alpha/tokens/{id}"), ADMIN).await.expect(204, None);

    let expected =
        ["team.created", "team.updated", "token.created", "agent.created", "agent.updated", "token.revoked"];
    let log = events(&api).await;
    let seqs: Vec<i64> = log.iter().map(|(seq, _)| *seq).collect();
    let types: Vec<&str> = log.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(types, expected);
    assert_eq!(seqs, (1..=expected.len() as i64).collect::<Vec<_>>());

    // Refused writes and reads append nothing.
    let read = api.token("alpha", "read").await;
    let before = events(&api).await.len();
    problem(&api.put("/v1/teams/alpha/agents/bob", &read, json!({})).await, 403, "forbidden");
    problem(
        &api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "kind": "robot" })).await,
        422,
        "invalid_field",
    );
    problem(
        &api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "required_approvals": 0 } })).await,
        422,
        "invalid_field",
    );
    problem(&api.delete(&format!("/v1/teams/alpha/tokens/{id}"), ADMIN).await, 404, "not_found");
    problem(
        &api.post("/v1/teams/alpha/tokens", &read, json!({ "name": "x", "scope": "admin" })).await,
        403,
        "forbidden",
    );
    api.get("/v1/teams/alpha", &read).await.expect(200, None);
    api.get("/v1/teams/alpha/agents", &read).await.expect(200, None);
    let after = events(&api).await;
    assert_eq!(after.len(), before);
    assert_eq!(after.last().unwrap().1, "token.created");

    // Another team's log has its own seqs, from 1.
    api.team("beta", Value::Null).await;
    let beta: Vec<(i64, String)> =
        sqlx::query_as("select seq, type from events where team_id = 'beta' order by seq")
            .fetch_all(&api.pool)
            .await
            .unwrap();
    assert_eq!(beta, [(1, "team.created".to_owned())]);
}
