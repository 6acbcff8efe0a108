//! What a request must pass before its handler: a route, then a token, then its body in time.
//! A client that cannot authenticate gets nothing buffered and costs no lookup once it is
//! over its address's limit; a body that does not arrive in time is 408, and a bare error
//! response (a `/docs` file that does not exist) is problem+json like every other.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request};
use bytes::Bytes;
use futures_util::stream;
use reviewlock::app::authenticate::TokenCache;
use reviewlock::rate_limit::{RateLimit, RateLimiter};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{ADMIN, Api, Reply};
use crate::errors::problem;

/// A body whose first bytes arrive and then nothing more, ever.
fn stalled_body(first: &'static str) -> Body {
    let first = stream::once(async move { Ok::<_, Infallible>(Bytes::from_static(first.as_bytes())) });
    Body::from_stream(futures_util::StreamExt::chain(first, stream::pending()))
}

fn request(method: Method, path: &str, token: Option<&str>, from: &str, body: Body) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .extension(ConnectInfo(from.parse::<SocketAddr>().unwrap()));
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.body(body).unwrap()
}

#[sqlx::test]
async fn unauthenticated_requests_are_refused_before_their_body_arrives(pool: PgPool) {
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    const N: usize = 200;
    let started = Instant::now();
    let sends = (0..N).map(|i| {
        let token = (i % 2 == 0).then_some("rl_made-up");
        let request =
            request(Method::POST, "/v1/teams/alpha/artifacts", token, "10.0.0.1:1", stalled_body("{"));
        let mut request = request;
        request.headers_mut().insert("idempotency-key", format!("k{i}").parse().unwrap());
        async { tokio::time::timeout(Duration::from_secs(5), api.raw(request)).await }
    });
    let replies = futures_util::future::join_all(sends).await;
    let elapsed = started.elapsed();
    for reply in replies {
        let reply = reply.expect("answered without waiting for the body");
        problem(&reply, 401, "unauthenticated");
    }
    // A method the route does not take, and a route that does not exist: nothing is read either.
    let answer = |method, path: &'static str| {
        let request = request(method, path, Some(ADMIN), "10.0.0.1:1", stalled_body("{"));
        tokio::time::timeout(Duration::from_secs(5), api.raw(request))
    };
    problem(&answer(Method::PATCH, "/v1/teams/alpha/artifacts").await.unwrap(), 405, "method_not_allowed");
    problem(&answer(Method::POST, "/v1/nowhere").await.unwrap(), 404, "not_found");
    eprintln!(
        "hostile load: stalled unauthenticated POSTs: {N} with Idempotency-Key, all 401 without reading the body in {} ms",
        elapsed.as_millis()
    );
}

#[sqlx::test]
async fn a_body_that_arrives_too_slowly_is_408_and_changes_nothing(pool: PgPool) {
    let api = Api::with_state(pool, |state| state.body_read_timeout = Duration::from_millis(300));
    api.team("alpha", Value::Null).await;
    api.agent("alpha", "ann", json!({ "roles": ["engineer"] })).await;
    let before = api.footprint().await;
    let started = Instant::now();
    let slow = request(
        Method::POST,
        "/v1/teams/alpha/artifacts",
        Some(ADMIN),
        "10.0.0.1:1",
        stalled_body("{\"key\""),
    );
    let reply = tokio::time::timeout(Duration::from_secs(10), api.raw(slow)).await.expect("answered");
    let elapsed = started.elapsed();
    problem(&reply, 408, "request_timeout");
    assert_eq!(reply.headers["connection"], "close");
    assert_eq!(api.footprint().await, before, "nothing changed");
    // A body sent at once is served as ever.
    let artifact = json!({ "key": "auth", "title": "Auth", "author": "ann" });
    api.post("/v1/teams/alpha/artifacts", ADMIN, artifact).await.expect(201, None);
    eprintln!(
        "hostile load: slow body: 408 request_timeout after {} ms (body read timeout 300 ms)",
        elapsed.as_millis()
    );
}

#[sqlx::test]
async fn made_up_tokens_are_limited_per_address_and_not_each_looked_up(pool: PgPool) {
    let tokens = Arc::new(TokenCache::new(Duration::from_secs(1)));
    let api = Api::with_state(pool, |state| {
        state.auth.failed_logins = RateLimiter::new(RateLimit::new(1.0, 10));
        state.auth.tokens = tokens.clone();
    });
    api.team("alpha", Value::Null).await;
    let reader = api.token("alpha", "read").await;
    let api = &api;
    let send = |token: String, from: &'static str| {
        let request = request(Method::GET, "/v1/teams/alpha", Some(&token), from, Body::empty());
        async move { api.raw(request).await }
    };
    // A client of this address whose token is known goes on being served.
    send(reader.clone(), "10.0.0.1:1").await.expect(200, None);

    let lookups = tokens.lookups();
    const N: usize = 100;
    let mut statuses = Vec::new();
    let mut last: Option<Reply> = None;
    for i in 0..N {
        let reply = send(format!("rl_made-up-{i}"), "10.0.0.1:2").await;
        statuses.push(reply.status.as_u16());
        last = Some(reply);
    }
    let looked_up = tokens.lookups() - lookups;
    let refused = statuses.iter().filter(|&&s| s == 401).count();
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!((refused, limited), (10, N - 10), "a burst of 10 is looked up, then 429: {statuses:?}");
    assert_eq!(looked_up, 10, "no lookup once the address is over its limit");
    let last = last.unwrap();
    problem(&last, 429, "rate_limited");
    assert!(last.headers["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);

    // The known token of the same address still works; another address has its own budget.
    send(reader.clone(), "10.0.0.1:3").await.expect(200, None);
    problem(&send("rl_made-up-elsewhere".into(), "10.0.0.2:1").await, 401, "unauthenticated");

    // One made-up token sent again and again is looked up once.
    let lookups = tokens.lookups();
    for _ in 0..5 {
        problem(&send("rl_made-up-again".into(), "10.0.0.3:1").await, 401, "unauthenticated");
    }
    assert_eq!(tokens.lookups() - lookups, 1, "the unknown token is remembered");
    eprintln!(
        "hostile load: made-up tokens: {N} from one address, {refused} answered 401 ({looked_up} lookups), {limited} answered 429 \
         with no lookup; one made-up token sent 5 times: 1 lookup"
    );
}

#[sqlx::test]
async fn a_token_created_after_its_secret_was_refused_works_at_once(pool: PgPool) {
    // The secret is random, so the refusal cached is of another secret: what matters is that
    // creating a token clears what the cache remembers, and the new token is served at once.
    let api = Api::new(pool);
    api.team("alpha", Value::Null).await;
    problem(&api.get("/v1/teams/alpha", "rl_made-up").await, 401, "unauthenticated");
    let reader = api.token("alpha", "read").await;
    api.get("/v1/teams/alpha", &reader).await.expect(200, None);
}

#[sqlx::test]
async fn bare_error_responses_are_problem_json(pool: PgPool) {
    let api = Api::new(pool);
    let reply = api.send(Method::GET, "/docs/nope", None, None).await;
    problem(&reply, 404, "not_found");
}
