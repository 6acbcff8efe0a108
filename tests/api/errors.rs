//! Every error is RFC 9457 problem+json with a stable code, axum's own rejections included.

use axum::body::Body;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api, Reply};

/// Asserts an error reply: status, problem+json content type, and every RFC 9457 member plus
/// our `code`.
#[track_caller]
pub fn problem(reply: &Reply, status: u16, code: &str) {
    let body = reply.expect(status, Some(code));
    assert_eq!(body["type"], format!("urn:reviewlock:problem:{code}"), "type; body: {body}");
    assert!(body["title"].as_str().is_some_and(|t| !t.is_empty()), "title; body: {body}");
    assert_eq!(body["status"], status, "status member; body: {body}");
    assert!(body["detail"].as_str().is_some_and(|t| !t.is_empty()), "detail; body: {body}");
    assert_eq!(body["code"], code, "code; body: {body}");
    let request_id = reply.headers["x-request-id"].to_str().unwrap();
    assert_eq!(body["request_id"], request_id, "the problem names the request as the logs do; body: {body}");
    if code == "invalid_field" {
        let errors = body["errors"].as_array().expect("invalid_field lists its errors");
        assert!(!errors.is_empty(), "errors; body: {body}");
        for e in errors {
            assert!(e["field"].is_string() && e["message"].is_string(), "{e}");
        }
    }
}

/// Asserts a 422 `invalid_field` and returns the fields it names, in order.
#[track_caller]
pub fn invalid_fields(reply: &Reply) -> Vec<String> {
    problem(reply, 422, "invalid_field");
    reply.body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap().to_owned()).collect()
}

/// A request with a raw body and an explicit content type (or none).
async fn send_raw(
    api: &Api,
    method: Method,
    path: &str,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> Reply {
    let mut request =
        Request::builder().method(method).uri(path).header("authorization", format!("Bearer {ADMIN}"));
    if let Some(content_type) = content_type {
        request = request.header("content-type", content_type);
    }
    api.raw(request.body(body.into()).unwrap()).await
}

#[sqlx::test]
async fn malformed_json_is_400_malformed_request(pool: PgPool) {
    let api = Api::new(pool);
    for body in
        [r#"{"display_name": "#, "{display_name: 'x'}", "not json", r#"{"display_name": "a"} trailing"#]
    {
        let reply = send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json"), body).await;
        problem(&reply, 400, "malformed_request");
    }
    // Nothing was created by any of them.
    problem(&api.get("/v1/teams/alpha", ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn an_empty_body_is_malformed(pool: PgPool) {
    let api = Api::new(pool);
    let reply = send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json"), "").await;
    problem(&reply, 400, "malformed_request");
}

#[sqlx::test]
async fn unknown_fields_are_422_naming_the_field(pool: PgPool) {
    let api = Api::new(pool);
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "display_name": "A", "owner": "x" })).await;
    assert_eq!(invalid_fields(&reply), ["owner"]);
    let reply =
        api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "profile": "waza", "quorum": 2 } })).await;
    assert_eq!(invalid_fields(&reply), ["policy.quorum"]);
    api.team("alpha", Value::Null).await;
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "is_lead": true })).await;
    assert_eq!(invalid_fields(&reply), ["is_lead"]);
    let reply = api
        .post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "ci", "scope": "read", "expires": "never" }))
        .await;
    assert_eq!(invalid_fields(&reply), ["expires"]);
}

#[sqlx::test]
async fn wrong_types_are_422_naming_the_field(pool: PgPool) {
    let api = Api::new(pool);
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "display_name": 7 })).await;
    assert_eq!(invalid_fields(&reply), ["display_name"]);
    let reply = api.put("/v1/teams/alpha", ADMIN, json!({ "policy": { "required_approvals": "two" } })).await;
    assert_eq!(invalid_fields(&reply), ["policy.required_approvals"]);
    let reply = api.put("/v1/teams/alpha", ADMIN, json!([])).await;
    assert_eq!(invalid_fields(&reply), ["body"]);
    api.team("alpha", Value::Null).await;
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "roles": ["lead", 3] })).await;
    assert_eq!(invalid_fields(&reply), ["roles[1]"]);
    let reply = api.put("/v1/teams/alpha/agents/ann", ADMIN, json!({ "can_review": "yes" })).await;
    assert_eq!(invalid_fields(&reply), ["can_review"]);
    let reply = api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": ["ci"], "scope": "read" })).await;
    assert_eq!(invalid_fields(&reply), ["name"]);
    // None of these created anything.
    problem(&api.get("/v1/teams/alpha/agents/ann", ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn missing_required_fields_are_422_naming_the_field(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let reply = api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "name": "ci" })).await;
    assert_eq!(invalid_fields(&reply), ["scope"]);
    let reply = api.post("/v1/teams/alpha/tokens", ADMIN, json!({ "scope": "read" })).await;
    assert_eq!(invalid_fields(&reply), ["name"]);
}

#[sqlx::test]
async fn a_body_over_256_kib_is_413(pool: PgPool) {
    let api = Api::new(pool);
    let big = json!({ "display_name": "x".repeat(256 * 1024) }).to_string();
    assert!(big.len() > 256 * 1024);
    let reply = send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json"), big).await;
    problem(&reply, 413, "payload_too_large");
    problem(&api.get("/v1/teams/alpha", ADMIN).await, 404, "not_found");

    // Just under the limit is read, and refused only by validation.
    let under = json!({ "display_name": "x".repeat(255 * 1024) }).to_string();
    assert!(under.len() <= 256 * 1024);
    let reply = send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json"), under).await;
    assert_eq!(invalid_fields(&reply), ["display_name"]);
}

#[sqlx::test]
async fn a_body_that_is_not_json_is_415(pool: PgPool) {
    let api = Api::new(pool);
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
        let reply = send_raw(&api, Method::PUT, "/v1/teams/alpha", Some(content_type), "{}").await;
        problem(&reply, 415, "unsupported_media_type");
    }
    problem(&api.get("/v1/teams/alpha", ADMIN).await, 404, "not_found");
    // JSON with parameters is JSON.
    let reply =
        send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json; charset=utf-8"), "{}").await;
    reply.expect(201, None);
}

#[sqlx::test]
async fn an_unknown_route_is_404_not_found(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    for path in ["/nope", "/v1", "/v1/nope", "/v1/teams/alpha/nope", "/v2/teams/alpha"] {
        problem(&api.get(path, ADMIN).await, 404, "not_found");
    }
    // Without a token too: the route does not exist whoever asks.
    let reply = api.send(Method::GET, "/v1/nope", None, None).await;
    problem(&reply, 404, "not_found");
}

#[sqlx::test]
async fn a_wrong_method_is_405(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let cases = [
        (Method::DELETE, "/v1/teams/alpha"),
        (Method::POST, "/v1/teams/alpha/agents"),
        (Method::PATCH, "/v1/teams/alpha/agents/ann"),
        (Method::PUT, "/v1/teams/alpha/tokens"),
        (Method::POST, "/healthz"),
    ];
    for (method, path) in cases {
        let reply = api.send(method.clone(), path, Some(ADMIN), None).await;
        assert_eq!(reply.status, 405, "{method} {path}: {}", reply.body);
        problem(&reply, 405, "method_not_allowed");
    }
}

#[sqlx::test]
async fn a_path_parameter_of_the_wrong_type_is_400(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let reply = api.delete("/v1/teams/alpha/tokens/not-a-uuid", ADMIN).await;
    problem(&reply, 400, "malformed_request");
}

#[sqlx::test]
async fn every_error_is_a_complete_problem(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let read = api.token("alpha", "read").await;
    let cases: Vec<(Reply, u16, &str)> = vec![
        (api.send(Method::GET, "/v1/teams/alpha", None, None).await, 401, "unauthenticated"),
        (api.put("/v1/teams/alpha/agents/ann", &read, json!({})).await, 403, "forbidden"),
        (api.get("/v1/teams/beta", ADMIN).await, 404, "not_found"),
        (
            send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("application/json"), "{").await,
            400,
            "malformed_request",
        ),
        (api.put("/v1/teams/Alpha", ADMIN, json!({})).await, 422, "invalid_field"),
        (
            send_raw(&api, Method::PUT, "/v1/teams/alpha", Some("text/plain"), "{}").await,
            415,
            "unsupported_media_type",
        ),
        (api.get("/nowhere", ADMIN).await, 404, "not_found"),
    ];
    for (reply, status, code) in &cases {
        problem(reply, *status, code);
        // No internals: no SQL, no Rust type names, no file paths.
        let detail = reply.body["detail"].as_str().unwrap().to_lowercase();
        for leak in ["sqlx", "select ", "postgres", ".rs:", "panicked"] {
            assert!(!detail.contains(leak), "{detail}");
        }
    }
}

#[sqlx::test]
async fn an_unreachable_database_is_503_unavailable(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    let read = api.token("alpha", "read").await;
    api.pool.clone().close().await;

    // The server admin token needs no lookup: the handler's own query fails.
    let reply = api.get("/v1/teams/alpha", ADMIN).await;
    problem(&reply, 503, "unavailable");
    assert_eq!(reply.headers["retry-after"], "2", "a 503 says when to come back");
    problem(&api.put("/v1/teams/beta", ADMIN, json!({})).await, 503, "unavailable");
    // A team token is looked up in the database, which cannot answer: the reply says so.
    let reply = api.get("/v1/teams/alpha", &read).await;
    problem(&reply, 503, "unavailable");
    assert!(reply.body["detail"].as_str().unwrap().contains("token could not be checked"), "{}", reply.body);
    assert_eq!(reply.headers["retry-after"], "2");
    let reply = api.send(Method::GET, "/readyz", None, None).await;
    problem(&reply, 503, "unavailable");
    // Liveness does not depend on the database.
    api.send(Method::GET, "/healthz", None, None).await.expect(200, None);
}
