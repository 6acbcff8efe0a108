//! What every request passes through: a time limit, errors as problem+json, and one log line
//! with its metrics.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::request_id::RequestId;

use crate::app::index::Index;
use crate::error::Error;
use crate::http::error::{self, InternalCause, ProblemCode};
use crate::http::events;
use crate::http::preconditions::SEQ;

/// A write's `Reviewlock-Seq` tells this replica's lockout index the seq it committed for its
/// team, before the client has the answer: a check or conditional read through this replica
/// after it is answered at or past that seq (read-your-writes on one replica, with no
/// `min_seq`), by the index once it has applied the write, by the database until then.
pub async fn committed(State(index): State<Index>, request: Request, next: Next) -> Response {
    let team = request
        .uri()
        .path()
        .strip_prefix("/v1/teams/")
        .map(|rest| rest.split('/').next().unwrap_or_default().to_owned());
    let response = next.run(request).await;
    let seq = response.headers().get(SEQ).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<i64>().ok());
    if let (Some(team), Some(seq)) = (team, seq) {
        index.committed(&team, seq);
    }
    response
}

/// A request that takes longer than the configured timeout (plus a long poll's `wait`) answers
/// 503 `unavailable`.
pub async fn time_limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    let limit = limit + events::long_poll_wait(&request);
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => Error::Unavailable.into_response(),
    }
}

/// An error response made without a body (by a layer, or a route such as `/docs/*`) gets the
/// problem+json of its status, with a code, as every other refusal.
pub async fn problems(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let bare = response.headers().get(header::CONTENT_TYPE).is_none()
        && axum::body::HttpBody::size_hint(response.body()).exact() == Some(0);
    match error::of_status(response.status()).filter(|_| bare) {
        Some(e) => {
            let mut problem = e.into_response();
            let (parts, _) = response.into_parts();
            // Keep what the layer said besides its status (`Allow`, `Retry-After`).
            for (name, value) in parts.headers.iter().filter(|(name, _)| *name != header::CONTENT_LENGTH) {
                problem.headers_mut().entry(name).or_insert_with(|| value.clone());
            }
            problem
        }
        None => response,
    }
}

/// Logs each request once, inside a span carrying its request id and route; a 500's cause is
/// logged here and nowhere else. Counts and times it in the metrics, with its refusal's code.
pub async fn log(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let route = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned());
    let method = request.method().clone();
    let span = tracing::info_span!("request", %method, route = route.as_deref().unwrap_or("-"), %request_id);
    let handled = error::REQUEST_ID.scope(request_id.clone(), next.run(request));
    let response = tracing::Instrument::instrument(handled, span.clone()).await;
    let _entered = span.enter();
    let status = response.status().as_u16();
    let elapsed = started.elapsed();
    let latency_ms = elapsed.as_secs_f64() * 1000.0;
    let code = response.extensions().get::<ProblemCode>().map(|c| c.0.as_str());
    crate::metrics::record_request(method.as_str(), route.as_deref(), status, elapsed, code);
    match response.extensions().get::<InternalCause>() {
        Some(cause) => tracing::error!(status, latency_ms, cause = %cause.0, "request failed"),
        None => tracing::info!(status, latency_ms, "request"),
    }
    response
}
