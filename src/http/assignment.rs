//! Who revises: the coordinator's assignment and its release, and the user's resolution of a deadlock.

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{assignment, resolution};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::http::preconditions::reply;
use crate::resources::{ArtifactStatus, AssignmentInput, ResolutionInput};
use crate::validate::{Fields, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(assign, release)).routes(routes!(resolve))
}

/// Assign the agent who writes the revision (R5): verified not locked out before it is spawned.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/assignment", tag = "assignment",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = AssignmentInput,
    responses((status = 201, description = "assigned; the artifact is in revision", body = ArtifactStatus),
              (status = 409, description = "a rule refusal: `agent_locked_out`, `invalid_agent`, `expertise_mismatch`, `rejecting_reviewer_excluded`, `deadlocked`, `invalid_state`",
               body = crate::http::error::Problem, content_type = "application/problem+json")))]
async fn assign(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Json(input): Json<AssignmentInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.slug("agent", &input.agent);
    fields.opt_text("note", input.note.as_deref(), MAX_TEXT);
    fields.finish()?;
    Ok(reply(assignment::assign(&state.pool, &actor, &pre, &team, &key, input).await?))
}

/// Release the assignment: back to `changes_requested`.
#[utoipa::path(delete, path = "/v1/teams/{team}/artifacts/{key}/assignment", tag = "assignment",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    responses((status = 200, description = "released", body = ArtifactStatus),
              (status = 409, description = "`invalid_state`: no active assignment", body = crate::http::error::Problem,
               content_type = "application/problem+json")))]
async fn release(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
) -> Result<Response> {
    Ok(reply(assignment::release(&state.pool, &actor, &pre, &team, &key).await?))
}

/// The user resolves a deadlock (R9): assign an agent who is not locked out, or abandon.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/resolution", tag = "escalations",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = ResolutionInput,
    responses((status = 200, description = "resolved", body = ArtifactStatus),
              (status = 409, description = "a rule refusal: `invalid_state`, `agent_locked_out`, `invalid_agent`, `expertise_mismatch`, `rejecting_reviewer_excluded`",
               body = crate::http::error::Problem, content_type = "application/problem+json")))]
async fn resolve(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Json(input): Json<ResolutionInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    if let Some(agent) = &input.agent {
        fields.slug("agent", agent);
    }
    fields.text("reason", &input.reason, MAX_TEXT);
    fields.finish()?;
    Ok(reply(resolution::resolve(&state.pool, &actor, &pre, &team, &key, input).await?))
}
