//! Artifacts: create one with its version 1, list them, read one's status.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{create, reads};
use crate::domain::{ArtifactKey, TeamId};
use crate::domain::{Contributor, State as ArtifactState};
use crate::error::{Error, Result};
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::{limit, paginate};
use crate::http::preconditions::{self, reply};
use crate::http::state::AppState;
use crate::resources::{ArtifactInput, ArtifactPage, ArtifactStatus};
use crate::validate::{Fields, MAX_LIST, MAX_NAME, MAX_TAG, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(create_artifact, list_artifacts)).routes(routes!(get_artifact))
}

pub(crate) const MAX_REF: usize = 500;

/// The fields every version carries, validated the same way on create and on a new version.
pub(crate) fn version_fields(
    fields: &mut Fields,
    contributors: Option<&[Contributor]>,
    git_ref: Option<&str>,
    summary: Option<&str>,
) {
    if contributors.unwrap_or_default().len() > MAX_LIST {
        fields.add("contributors", format!("must have at most {MAX_LIST} items"));
    }
    fields.opt_text("ref", git_ref, MAX_REF);
    fields.opt_text("summary", summary, MAX_TEXT);
}

/// Create an artifact with its version 1, in review.
///
/// The `author` must be an active agent that may author; the key must be new to the team
/// (`artifact_exists`).
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts", tag = "artifacts",
    params(("team" = String, Path, description = "team id")),
    request_body = ArtifactInput,
    responses((status = 201, description = "created, in review", body = ArtifactStatus)))]
async fn create_artifact(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(team): Path<TeamId>,
    Json(input): Json<ArtifactInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("title", &input.title, MAX_NAME);
    fields.opt_text("kind", input.kind.as_deref(), MAX_TAG);
    version_fields(
        &mut fields,
        input.contributors.as_deref(),
        input.git_ref.as_deref(),
        input.summary.as_deref(),
    );
    fields.finish()?;
    Ok(reply(create::create(&state.pool, &actor, &pre, &team, input).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ArtifactFilter {
    /// Only artifacts in this state.
    #[param(value_type = Option<ArtifactState>)]
    pub state: Option<String>,
    /// Only artifacts this agent authored a version of or is locked out of.
    pub agent: Option<String>,
    /// From a previous page's `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

/// The team's artifacts, a page at a time.
///
/// In key order, filtered by `state` and by `agent` (artifacts the agent authored a version of or is
/// locked out of). Carries an `ETag` for `If-None-Match`.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts", tag = "artifacts",
    params(("team" = String, Path, description = "team id"), ArtifactFilter),
    responses((status = 200, description = "a page of artifacts", body = ArtifactPage, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn list_artifacts(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(filter): Query<ArtifactFilter>,
) -> Result<Response> {
    let limit = limit(filter.limit)?;
    if let Some(s) = &filter.state
        && ArtifactState::parse(s).is_none()
    {
        return Err(Error::invalid(
            "state",
            "must be one of in_review, changes_requested, in_revision, approved, deadlocked, abandoned",
        ));
    }
    let by = (filter.state.as_deref(), filter.agent.as_deref(), filter.cursor.as_deref());
    let held = preconditions::held(&headers);
    let fetched = reads::list(&state.pool, &state.index, &actor, &team, by, limit + 1, held).await?;
    Ok(preconditions::respond(fetched, |rows| {
        let (items, next_cursor) = paginate(rows, limit, |a| a.key.clone());
        ArtifactPage { items, next_cursor }
    }))
}

/// The artifact's status.
///
/// Its state, current version with its reviews, active lockouts, assignment, pending remedy, the
/// agents eligible to revise it and any open escalation, as one snapshot. The `ETag` changes
/// whenever any of it would: send it as `If-None-Match` to poll cheaply (304), or as `If-Match` on
/// a write to refuse it if the artifact changed since (412).
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}", tag = "artifacts",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key; `/` encoded as `%2F`")),
    responses((status = 200, description = "the status", body = ArtifactStatus,
               headers(("ETag" = String, description = "the artifact's revision and its team's (`\"<revision>.<team revision>\"`): it changes when the artifact or the agents eligible to revise it change; send it as `If-Match` on a write"))),
              (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn get_artifact(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
) -> Result<Response> {
    let fetched =
        reads::get(&state.pool, &state.index, &actor, &team, &key, preconditions::held(&headers)).await?;
    Ok(preconditions::respond(fetched, |status| status))
}
