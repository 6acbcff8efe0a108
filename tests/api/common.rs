//! Drives the router in-process, as a client would over HTTP.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode};
use http_body_util::BodyExt;
use reviewlock::{AppState, app};
use serde_json::{Value, json};
use sqlx::PgPool;
use tower::ServiceExt;

/// The server-wide admin token every test server is configured with.
pub const ADMIN: &str = "test-admin-token";

/// The `REVIEWLOCK_SECRET_KEY` of the tests (32 bytes in base64).
pub const SECRET_KEY: &str = "cmV2aWV3bG9jayB0ZXN0IGtleSwgMzIgYnl0ZXMgISE=";

/// Deliveries as the tests configure them: with a key, and allowed to reach receivers on
/// 127.0.0.1 over http (`REVIEWLOCK_WEBHOOK_ALLOW_HTTP`, `…_ALLOW_PRIVATE`).
pub fn outbox() -> reviewlock::app::deliver::Outbox {
    use reviewlock::outbound::{Client, Policy};
    let keys = reviewlock::seal::Keys::parse(SECRET_KEY, &[]).unwrap();
    let policy = Policy { allow_http: true, allow_private: true };
    reviewlock::app::deliver::Outbox::new(
        Client::new(policy),
        Some(keys),
        Some("https://reviewlock.example.com"),
    )
}

pub struct Api {
    pub app: Router,
    pub pool: PgPool,
    /// The state the router serves, to read its feed or its pool.
    pub state: AppState,
}

#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    /// The body's bytes as sent.
    pub bytes: Vec<u8>,
}

impl Reply {
    /// The problem+json `code`, or "" when there is none.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or_default()
    }

    /// Asserts the status and, for an error, the problem+json `code`; returns the body.
    #[track_caller]
    pub fn expect(&self, status: u16, code: Option<&str>) -> &Value {
        assert_eq!(self.status.as_u16(), status, "unexpected status; body: {}", self.body);
        if let Some(code) = code {
            assert_eq!(self.code(), code, "unexpected code; body: {}", self.body);
            assert_eq!(self.headers["content-type"], "application/problem+json", "errors are problem+json");
        }
        &self.body
    }

    /// A check's answer (200) without its `seq`, which must be there: the seq it reflects.
    #[track_caller]
    pub fn answer(&self) -> Value {
        let mut body = self.expect(200, None).clone();
        let seq = body.as_object_mut().and_then(|o| o.remove("seq"));
        assert!(
            seq.as_ref().and_then(Value::as_i64).is_some_and(|s| s >= 0),
            "a check answers its seq: {}",
            self.body
        );
        body
    }

    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(self.status.is_success(), "expected success, got {}: {}", self.status, self.body);
        &self.body
    }
}

impl Api {
    pub fn new(pool: PgPool) -> Self {
        Self::with_state(pool, |_| {})
    }

    /// An API whose deliveries reach receivers on 127.0.0.1 ([`outbox`]), with this process's
    /// delivery worker running (as `serve` runs it) until the test ends.
    pub fn delivering(pool: PgPool) -> Self {
        let api = Self::with_state(pool, |s| s.outbox = outbox());
        api.state.feed.start();
        let state = &api.state;
        tokio::spawn(reviewlock::app::deliver::run(
            state.outbox.clone(),
            state.pool.clone(),
            state.feed.clone(),
            4,
        ));
        api
    }

    /// As [`Api::new`], with the state changed by `configure` first (e.g. a rate limit).
    pub fn with_state(pool: PgPool, configure: impl FnOnce(&mut AppState)) -> Self {
        let mut state = AppState::new(pool.clone());
        state.auth.admin_token_hash = Some(std::sync::Arc::new(reviewlock::auth::hash_secret(ADMIN)));
        configure(&mut state);
        Api { app: app(state.clone()), pool, state }
    }

    /// Sends a request; `body` is sent as JSON when given.
    pub async fn send(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Reply {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let body = match body {
            Some(v) => {
                request = request.header("content-type", "application/json");
                Body::from(v.to_string())
            }
            None => Body::empty(),
        };
        self.raw(request.body(body).unwrap()).await
    }

    /// As [`Api::send`], with extra request headers (values sent as raw bytes, so non-ASCII
    /// values are possible).
    pub async fn send_with(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, HeaderValue::from_bytes(value.as_bytes()).unwrap());
        }
        let body = match body {
            Some(v) => {
                request = request.header("content-type", "application/json");
                Body::from(v.to_string())
            }
            None => Body::empty(),
        };
        self.raw(request.body(body).unwrap()).await
    }

    pub async fn raw(&self, request: Request<Body>) -> Reply {
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
        };
        Reply { status, headers, body, bytes: bytes.to_vec() }
    }

    pub async fn get(&self, path: &str, token: &str) -> Reply {
        self.send(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Reply {
        self.send(Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Reply {
        self.send(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str) -> Reply {
        self.send(Method::DELETE, path, Some(token), None).await
    }

    /// What every write leaves behind, counted across the database: events (and the last seq),
    /// artifacts (and the sum of their revisions), versions, reviews, lockouts (and the active
    /// ones), assignments (and the active ones), escalations (and the open ones), tokens (and the
    /// revoked ones), agents (and the sum of their update times), idempotency keys, server-wide
    /// tokens, webhooks and forges. Equal footprints before and after a request mean it changed nothing.
    pub async fn footprint(&self) -> Vec<i64> {
        sqlx::query_scalar(
            "select array[
                 (select count(*) from events), (select coalesce(max(seq), 0) from events),
                 (select count(*) from artifacts), (select coalesce(sum(revision), 0)::bigint from artifacts),
                 (select count(*) from versions), (select count(*) from reviews),
                 (select count(*) from lockouts), (select count(*) from lockouts where cleared_at is null),
                 (select count(*) from assignments), (select count(*) from assignments where ended_at is null),
                 (select count(*) from escalations), (select count(*) from escalations where resolved_at is null),
                 (select count(*) from tokens), (select count(*) from tokens where revoked_at is not null),
                 (select count(*) from agents),
                 (select coalesce(sum(extract(epoch from updated_at) * 1000000), 0)::bigint from agents),
                 (select count(*) from idempotency_keys), (select count(*) from server_tokens),
                 (select count(*) from delivery_targets)]",
        )
        .fetch_one(&self.pool)
        .await
        .expect("the footprint query")
    }

    /// Creates a team with the server admin token.
    pub async fn team(&self, team: &str, policy: Value) -> Value {
        let body = if policy.is_null() { json!({}) } else { json!({ "policy": policy }) };
        self.put(&format!("/v1/teams/{team}"), ADMIN, body).await.expect(201, None).clone()
    }

    /// A new token of the team with this scope.
    pub async fn token(&self, team: &str, scope: &str) -> String {
        let reply = self
            .post(
                &format!("/v1/teams/{team}/tokens"),
                ADMIN,
                json!({ "name": format!("{scope}-token"), "scope": scope }),
            )
            .await;
        reply.expect(201, None)["token"].as_str().unwrap().to_owned()
    }

    /// Creates or updates an agent with the server admin token.
    pub async fn agent(&self, team: &str, agent: &str, body: Value) -> Value {
        self.put(&format!("/v1/teams/{team}/agents/{agent}"), ADMIN, body).await.ok().clone()
    }
}
