//! What the service logs: never a token, nor a token's hash. In a binary of its own, so that no
//! other test's thread touches the process's tracing state while its capture is installed.

#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::http::Method;
use common::{ADMIN, Api, Reply};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tracing_subscriber::fmt::MakeWriter;

/// A refusal with this status and code.
fn problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status.as_u16(), status, "{}", reply.body);
    assert_eq!(reply.body["code"], code, "{}", reply.body);
}

/// A `MakeWriter` appending every log line to one shared buffer.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Capture {
    type Writer = Capture;

    fn make_writer(&'a self) -> Capture {
        self.clone()
    }
}

impl Capture {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[sqlx::test]
async fn tokens_never_appear_in_the_logs(pool: PgPool) {
    let json_logs = Capture::default();
    let pretty_logs = Capture::default();
    use tracing_subscriber::layer::SubscriberExt;
    let subscriber = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .json()
                .with_current_span(true)
                .with_span_list(true)
                .with_writer(json_logs.clone()),
        )
        .with(tracing_subscriber::fmt::layer().with_ansi(false).with_writer(pretty_logs.clone()))
        .with(tracing_subscriber::filter::LevelFilter::TRACE);
    let _default = tracing::subscriber::set_default(subscriber);

    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.team("beta", Value::Null).await;
    // The secret is created in a logged request, with an idempotency key (its reply is stored).
    let reply = api
        .send_with(
            Method::POST,
            "/v1/teams/alpha/tokens",
            Some(ADMIN),
            Some(json!({ "name": "orchestrator", "scope": "coordinator" })),
            &[("idempotency-key", "make-coordinator")],
        )
        .await;
    let secret = reply.expect(201, None)["token"].as_str().unwrap().to_owned();
    let wrong = format!("rl_{}", "0".repeat(64));

    // Successes, refusals and failures, reads and writes, all with the bearer token.
    api.get("/v1/teams/alpha", &secret).await.expect(200, None);
    api.put("/v1/teams/alpha/agents/ann", &secret, json!({ "roles": ["engineer"] })).await.expect(201, None);
    let artifact = json!({ "key": "auth", "title": "Auth", "author": "ann" });
    api.post("/v1/teams/alpha/artifacts", &secret, artifact.clone()).await.expect(201, None);
    problem(&api.post("/v1/teams/alpha/artifacts", &secret, artifact).await, 409, "artifact_exists");
    problem(&api.get("/v1/teams/alpha/tokens", &secret).await, 403, "forbidden");
    problem(&api.get("/v1/teams/beta", &secret).await, 404, "not_found");
    problem(
        &api.put("/v1/teams/alpha/agents/ann", &secret, json!({ "roles": 7 })).await,
        422,
        "invalid_field",
    );
    api.get("/v1/teams/alpha/events?after=0", &secret).await.expect(200, None);
    problem(&api.get("/v1/teams/alpha", &wrong).await, 401, "unauthenticated");
    // The token where it does not belong: in a body.
    let reply = api.post("/v1/teams/alpha/checks", &secret, json!({ "agent": secret, "paths": ["a"] })).await;
    assert!(reply.status.is_client_error(), "{}", reply.body);

    let logs = json_logs.text() + &pretty_logs.text();
    assert!(logs.contains("request"), "the capture sees the request logs: {logs}");
    assert!(logs.contains("/v1/teams/{team}"), "routes are logged: {logs}");
    for secret in [secret.as_str(), ADMIN, wrong.as_str()] {
        assert!(!logs.contains(secret), "a token is in the logs:\n{logs}");
        assert!(
            !logs.contains(&hex::encode(Sha256::digest(secret.as_bytes()))),
            "a token's hash is in the logs"
        );
    }
}
