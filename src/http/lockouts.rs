//! Lockouts: the team's active ones, and the user's early lift of one.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{lift, reads};
use crate::domain::{AgentId, ArtifactKey, TeamId};
use crate::error::Result;
use crate::http::extract::{Json, Path, Query};
use crate::http::preconditions::{self, reply};
use crate::http::state::AppState;
use crate::resources::{ArtifactStatus, LiftInput, LockoutPage};
use crate::validate::{Fields, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(lockouts)).routes(routes!(lift))
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

/// The team's active lockouts.
///
/// By artifact and agent, filtered by `agent` or `artifact`. A lockout lasts until a revision of its
/// artifact is approved (R8) or the user lifts it (R10).
#[utoipa::path(get, path = "/v1/teams/{team}/lockouts", tag = "lockouts",
    params(("team" = String, Path, description = "team id"), LockoutFilter),
    responses((status = 200, description = "the active lockouts", body = LockoutPage, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn lockouts(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(filter): Query<LockoutFilter>,
) -> Result<Response> {
    let (agent, artifact) = (filter.agent.as_deref(), filter.artifact.as_deref());
    let held = preconditions::held(&headers);
    let fetched = reads::lockouts(&state.pool, &actor, &team, agent, artifact, held).await?;
    Ok(preconditions::respond(fetched, |items| LockoutPage { items, next_cursor: None }))
}

/// Lift one agent's lockout early.
///
/// Only a `user` token may, one agent at a time, with a mandatory `reason`; it is recorded as its own
/// event (`lockout.lifted`). Coordinators cannot clear lockouts (R8, R10).
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/lockouts/{agent}/lift", tag = "lockouts",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("agent" = String, Path, description = "the locked-out agent")),
    request_body = LiftInput,
    responses((status = 200, description = "lifted", body = ArtifactStatus)))]
async fn lift(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key, agent)): Path<(TeamId, ArtifactKey, AgentId)>,
    Json(input): Json<LiftInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("reason", &input.reason, MAX_TEXT);
    fields.finish()?;
    Ok(reply(lift::lift(&state.pool, &actor, &pre, &team, &key, &agent, &input.reason).await?))
}
