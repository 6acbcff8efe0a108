//! Escalations: deadlocked artifacts waiting for the user.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::app::actor::Actor;
use crate::app::reads;
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Path, Query};
use crate::http::paging::{PageQuery, paginate};
use crate::http::preconditions::{self};
use crate::resources::{Escalation, Page};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(escalations))
}

/// Open escalations: deadlocked artifacts waiting for the user, with their details.
#[utoipa::path(get, path = "/v1/teams/{team}/escalations", tag = "escalations",
    params(("team" = String, Path, description = "team id"), PageQuery),
    responses((status = 200, description = "a page of open escalations", body = Page<Escalation>, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
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
        Page { items, next_cursor }
    }))
}
