use axum::extract::State;
use axum::http::{StatusCode, header};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::error::Result;
use crate::http::state::AppState;
use crate::store;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(healthz)).routes(routes!(readyz)).routes(routes!(metrics))
}

/// Liveness: the process answers.
///
/// Answers 200 `ok` as long as the process serves requests, whatever the database's state: use it
/// to restart a hung process, not to route traffic (that is `/readyz`).
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "up")))]
async fn healthz() -> &'static str {
    "ok"
}

/// Readiness: the database answers.
///
/// Answers 200 `ready` when a query reaches the database, else 503 `unavailable`: a load balancer
/// sends requests only to replicas that are ready.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "the database answers"),
              (status = 503, description = "`unavailable`: the database does not answer", body = crate::http::error::Problem,
               content_type = "application/problem+json")))]
async fn readyz(State(state): State<AppState>) -> Result<(StatusCode, &'static str)> {
    state.pool.read(async |conn| store::operations::ping(conn).await).await?;
    Ok((StatusCode::OK, "ready"))
}

/// Metrics, in the Prometheus text format.
///
/// Requests by route template and status, refusals by code, the protocol's counters, active
/// lockouts and open escalations (read every 5 s), and the database pool. Served from memory:
/// a scrape never waits for the database. Without auth, like the health checks: it names no
/// team, agent or artifact.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "the metrics, in the Prometheus text exposition format", body = String,
               content_type = "text/plain")))]
async fn metrics(State(state): State<AppState>) -> ([(header::HeaderName, &'static str); 1], String) {
    let page = crate::metrics::render(&state.pool, &state.database_gauges, &state.index_gauges);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], page)
}
