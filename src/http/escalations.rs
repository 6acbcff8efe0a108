//! Escalations: deadlocked artifacts waiting for the user.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::reads;
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Path, Query};
use crate::http::paging::{PageQuery, paginate};
use crate::http::preconditions::{self};
use crate::http::state::AppState;
use crate::resources::EscalationPage;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(escalations))
}

/// Open escalations, a page at a time.
///
/// Deadlocked artifacts waiting for the user (R9), oldest first, each with what the user needs to
/// decide: the cycle's versions, their authors, the rejections and the lockouts.
#[utoipa::path(get, path = "/v1/teams/{team}/escalations", tag = "escalations",
    params(("team" = String, Path, description = "team id"), PageQuery),
    responses((status = 200, description = "a page of open escalations", body = EscalationPage, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn escalations(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(page): Query<PageQuery>,
) -> Result<Response> {
    let limit = page.limit()?;
    let after = page.after()?;
    let held = preconditions::held(&headers);
    let fetched = reads::escalations(&state.pool, &actor, &team, after, limit + 1, held).await?;
    Ok(preconditions::respond(fetched, |rows| {
        let (items, next_cursor) = paginate(rows, limit, |e| e.id.to_string());
        EscalationPage { items, next_cursor }
    }))
}
