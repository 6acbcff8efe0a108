use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::error::Result;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(healthz)).routes(routes!(readyz))
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "up")))]
async fn healthz() -> &'static str {
    "ok"
}

/// Readiness: the database answers.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "the database answers"),
              (status = 503, description = "`unavailable`: the database does not answer", body = crate::error::Problem,
               content_type = "application/problem+json")))]
async fn readyz(State(state): State<AppState>) -> Result<(StatusCode, &'static str)> {
    sqlx::query("select 1").execute(&state.pool).await?;
    Ok((StatusCode::OK, "ready"))
}
