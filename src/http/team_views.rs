//! Team-wide views: lockouts, escalations, checks and the event feed.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::auth::Caller;
use crate::error::{Error, Result};
use crate::http::conditional;
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::{PageQuery, limit, paginate};
use crate::resources::*;
use crate::service::artifacts as service;
use crate::service::teams;
use crate::validate::{Fields, MAX_NAME};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(lockouts))
        .routes(routes!(escalations))
        .routes(routes!(check))
        .routes(routes!(events))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LockoutFilter {
    /// Only this agent's lockouts.
    pub agent: Option<String>,
    /// Only this artifact's lockouts.
    pub artifact: Option<String>,
}

/// The team's active lockouts, by artifact and agent.
#[utoipa::path(get, path = "/v1/teams/{team}/lockouts", tag = "lockouts",
    params(("team" = String, Path, description = "team id"), LockoutFilter),
    responses((status = 200, description = "the active lockouts", body = Page<Lockout>, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn lockouts(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(team): Path<String>,
    Query(filter): Query<LockoutFilter>,
) -> Result<Response> {
    let etag = teams::lists_etag(&state.pool, &caller, &team).await?;
    conditional::respond(&headers, &etag, async {
        let (agent, artifact) = (filter.agent.as_deref(), filter.artifact.as_deref());
        let items = service::lockouts(&state.pool, &caller, &team, agent, artifact).await?;
        Ok(Page { items, next_cursor: None })
    })
    .await
}

/// Open escalations: deadlocked artifacts waiting for the user, with their details.
#[utoipa::path(get, path = "/v1/teams/{team}/escalations", tag = "escalations",
    params(("team" = String, Path, description = "team id"), PageQuery),
    responses((status = 200, description = "a page of open escalations", body = Page<Escalation>, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn escalations(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(team): Path<String>,
    Query(page): Query<PageQuery>,
) -> Result<Response> {
    let limit = page.limit()?;
    let after = page.after()?;
    let etag = teams::lists_etag(&state.pool, &caller, &team).await?;
    conditional::respond(&headers, &etag, async {
        let rows = service::escalations(&state.pool, &caller, &team, after, limit + 1).await?;
        let (items, next_cursor) = paginate(rows, limit, |e| e.id.to_string());
        Ok(Page { items, next_cursor })
    })
    .await
}

/// May this agent write this artifact or these files? For spawn-time and write-time hooks.
#[utoipa::path(post, path = "/v1/teams/{team}/checks", tag = "checks",
    params(("team" = String, Path, description = "team id")),
    request_body = CheckInput,
    responses((status = 200, description = "`allowed`, and each denial with its code", body = CheckResult)))]
async fn check(
    State(state): State<AppState>,
    caller: Caller,
    Path(team): Path<String>,
    Json(input): Json<CheckInput>,
) -> Result<axum::Json<CheckResult>> {
    let mut fields = Fields::new();
    fields.slug("agent", &input.agent);
    if let Some(key) = &input.artifact {
        fields.key("artifact", key);
    }
    let paths = input.paths.as_deref().unwrap_or_default();
    if paths.len() > 256 {
        fields.add("paths", "must have at most 256 items");
    } else {
        for (i, p) in paths.iter().enumerate() {
            fields.text(&format!("paths[{i}]"), p, MAX_NAME * 5);
        }
    }
    fields.finish()?;
    Ok(axum::Json(service::check(&state.pool, &caller, &team, input).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventQuery {
    /// Return events with a seq above this; 0 (the default) for the first.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

/// The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
/// served only once every event before it has committed, so a poller never skips one.
#[utoipa::path(get, path = "/v1/teams/{team}/events", tag = "events",
    params(("team" = String, Path, description = "team id"), EventQuery),
    responses((status = 200, description = "a page of events", body = EventPage)))]
async fn events(
    State(state): State<AppState>,
    caller: Caller,
    Path(team): Path<String>,
    Query(query): Query<EventQuery>,
) -> Result<axum::Json<EventPage>> {
    let limit = limit(query.limit)?;
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(Error::invalid("after", "must be at least 0"));
    }
    let items = service::events(&state.pool, &caller, &team, after, limit).await?;
    let next_after = items.last().map_or(after, |e| e.seq);
    Ok(axum::Json(EventPage { items, next_after }))
}
