//! Who revises: the coordinator's assignment and its release, and the user's resolution of a deadlock.

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{assignment, resolution};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::{ArtifactStatus, AssignmentInput, ResolutionInput};
use crate::validate::{Fields, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(assign, release)).routes(routes!(resolve))
}

/// Assign the agent who writes the revision.
///
/// Before spawning a reviser, the coordinator asks here (R5): the agent is refused when locked out
/// of the artifact, unknown, inactive, unable to author, lacking the expertise an `escalate`
/// remedy asks for, or excluded as the rejecting reviewer (waza). At most one assignment is active:
/// the artifact must be `changes_requested`, and a deadlocked artifact refuses every assignment.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/assignment", tag = "assignment",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = AssignmentInput,
    responses((status = 201, description = "assigned; the artifact is in revision", body = ArtifactStatus)))]
async fn assign(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Json(input): Json<AssignmentInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.opt_text("note", input.note.as_deref(), MAX_TEXT);
    fields.finish()?;
    Ok(reply(assignment::assign(&state.pool, &actor, &pre, &team, &key, input).await?))
}

/// Release the assignment.
///
/// The assignee will not write the revision after all: the artifact goes back to
/// `changes_requested` and another agent may be assigned. Lockouts stay (R8).
#[utoipa::path(delete, path = "/v1/teams/{team}/artifacts/{key}/assignment", tag = "assignment",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    responses((status = 200, description = "released", body = ArtifactStatus)))]
async fn release(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
) -> Result<Response> {
    Ok(reply(assignment::release(&state.pool, &actor, &pre, &team, &key).await?))
}

/// Resolve a deadlock.
///
/// Only a `user` token resolves a deadlocked artifact (R9): `assign` an agent who is not locked out
/// (e.g. one just added to the team), or `abandon` the artifact for good.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/resolution", tag = "escalations",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = ResolutionInput,
    responses((status = 200, description = "resolved", body = ArtifactStatus)))]
async fn resolve(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Json(input): Json<ResolutionInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("reason", &input.reason, MAX_TEXT);
    fields.finish()?;
    Ok(reply(resolution::resolve(&state.pool, &actor, &pre, &team, &key, input).await?))
}
