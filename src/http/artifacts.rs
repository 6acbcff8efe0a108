//! Artifacts, versions, reviews, assignment, resolution and lockout lifts.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{
    assignment, create, lift, reads, resolution, review as reviews, submit_version as versions,
};
use crate::domain::{Contributor, State as ArtifactState};
use crate::error::{Error, Result};
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::{PageQuery, limit, paginate};
use crate::http::preconditions::{self, reply};
use crate::resources::*;
use crate::validate::{Fields, MAX_LIST, MAX_NAME, MAX_TAG, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_artifact, list_artifacts))
        .routes(routes!(get_artifact))
        .routes(routes!(submit_version, list_versions))
        .routes(routes!(get_version))
        .routes(routes!(review))
        .routes(routes!(assign, release))
        .routes(routes!(resolve))
        .routes(routes!(lift))
}

const MAX_REF: usize = 500;

/// The fields every version carries, validated the same way on create and on a new version.
fn version_fields(
    fields: &mut Fields,
    author: &str,
    contributors: Option<&[Contributor]>,
    git_ref: Option<&str>,
    summary: Option<&str>,
) {
    fields.slug("author", author);
    let contributors = contributors.unwrap_or_default();
    if contributors.len() > MAX_LIST {
        fields.add("contributors", format!("must have at most {MAX_LIST} items"));
    }
    for (i, c) in contributors.iter().enumerate() {
        fields.slug(&format!("contributors[{i}].agent"), &c.agent);
    }
    fields.opt_text("ref", git_ref, MAX_REF);
    fields.opt_text("summary", summary, MAX_TEXT);
}

/// Create an artifact with its version 1, in review.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts", tag = "artifacts",
    params(("team" = String, Path, description = "team id")),
    request_body = ArtifactInput,
    responses((status = 201, description = "created, in review", body = ArtifactStatus),
              (status = 409, description = "`artifact_exists`, or a rule refusal (`invalid_agent`)", body = crate::http::error::Problem,
               content_type = "application/problem+json")))]
async fn create_artifact(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(team): Path<String>,
    Json(input): Json<ArtifactInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.key("key", &input.key);
    fields.text("title", &input.title, MAX_NAME);
    fields.opt_text("kind", input.kind.as_deref(), MAX_TAG);
    let paths = input.paths.as_deref().unwrap_or_default();
    fields.labels("paths", paths, MAX_NAME);
    for (i, p) in paths.iter().enumerate() {
        if let Err(e) = crate::app::globs::compile(p) {
            fields.add(format!("paths[{i}]"), format!("is not a valid glob: {}", e.kind()));
        }
    }
    version_fields(
        &mut fields,
        &input.author,
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
    pub state: Option<String>,
    /// Only artifacts this agent authored a version of or is locked out of.
    pub agent: Option<String>,
    /// From a previous page's `next_cursor`.
    pub cursor: Option<String>,
    /// 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

/// The team's artifacts in key order, a page at a time.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts", tag = "artifacts",
    params(("team" = String, Path, description = "team id"), ArtifactFilter),
    responses((status = 200, description = "a page of artifacts", body = Page<ArtifactSummary>, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn list_artifacts(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<String>,
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
    let fetched = reads::list(&state.pool, &actor, &team, by, limit + 1, held).await?;
    Ok(preconditions::respond(fetched, |rows| {
        let (items, next_cursor) = paginate(rows, limit, |a| a.key.clone());
        Page { items, next_cursor }
    }))
}

/// The artifact's status.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}", tag = "artifacts",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key; `/` encoded as `%2F`")),
    responses((status = 200, description = "the status", body = ArtifactStatus,
               headers(("ETag" = String, description = "the artifact's revision and its team's (`\"<revision>.<team revision>\"`): it changes when the artifact or the agents eligible to revise it change; send it as `If-Match` on a write"))),
              (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn get_artifact(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path((team, key)): Path<(String, String)>,
) -> Result<Response> {
    let fetched = reads::get(&state.pool, &actor, &team, &key, preconditions::held(&headers)).await?;
    Ok(preconditions::respond(fetched, |status| status))
}

/// Submit the next version (R5, R6): the assignee's revision, a supersede by the author of the
/// version under review, or a new cycle after approval.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/versions", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = VersionInput,
    responses((status = 201, description = "the new version, in review", body = Version),
              (status = 409, description = "a rule refusal: `agent_locked_out`, `not_assignee`, `rejecting_reviewer_excluded`, `invalid_agent`, `deadlocked`, `invalid_state`",
               body = crate::http::error::Problem, content_type = "application/problem+json")))]
async fn submit_version(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(String, String)>,
    Json(input): Json<VersionInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    version_fields(
        &mut fields,
        &input.author,
        input.contributors.as_deref(),
        input.git_ref.as_deref(),
        input.summary.as_deref(),
    );
    fields.finish()?;
    Ok(reply(versions::submit_version(&state.pool, &actor, &pre, &team, &key, input).await?))
}

/// The artifact's versions with their reviews, oldest first.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}/versions", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"), PageQuery),
    responses((status = 200, description = "a page of versions", body = Page<Version>)))]
async fn list_versions(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, key)): Path<(String, String)>,
    Query(page): Query<PageQuery>,
) -> Result<axum::Json<Page<Version>>> {
    let limit = limit(page.limit)?;
    let after = match page.cursor.as_deref() {
        None => 0,
        Some(c) => c.parse().map_err(|_| Error::invalid("cursor", "is not a cursor this list returned"))?,
    };
    let rows = reads::versions(&state.pool, &actor, &team, &key, after, limit + 1).await?;
    let (items, next_cursor) = paginate(rows, limit, |v| v.number.to_string());
    Ok(axum::Json(Page { items, next_cursor }))
}

/// One version with its reviews.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}/versions/{n}", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("n" = i32, Path, description = "version number")),
    responses((status = 200, description = "the version", body = Version)))]
async fn get_version(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, key, n)): Path<(String, String, i32)>,
) -> Result<axum::Json<Version>> {
    Ok(axum::Json(reads::version(&state.pool, &actor, &team, &key, n).await?))
}

/// Record a verdict on a version (R1–R4, R9, R11). A rejection locks out everyone credited on
/// the version and may deadlock the artifact.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", tag = "reviews",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("n" = i32, Path, description = "version number")),
    request_body = ReviewInput,
    responses((status = 201, description = "recorded; the artifact's new status", body = ReviewOutcome),
              (status = 409, description = "a rule refusal: `not_a_reviewer`, `self_review`, `stale_version`, `stale_ref`, `version_decided`, `duplicate_review`, `locked_out_agent_named`, `invalid_agent`, `rejecting_reviewer_excluded`, `expertise_mismatch`",
               body = crate::http::error::Problem, content_type = "application/problem+json")))]
async fn review(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key, n)): Path<(String, String, i32)>,
    Json(input): Json<ReviewInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.slug("reviewer", &input.reviewer);
    fields.opt_text("ref", input.git_ref.as_deref(), MAX_REF);
    fields.opt_text("reason", input.reason.as_deref(), MAX_TEXT);
    if let Some(remedy) = &input.remedy {
        if let Some(agent) = &remedy.agent {
            fields.slug("remedy.agent", agent);
        }
        fields.labels("remedy.expertise", &remedy.expertise, MAX_TAG);
    }
    if let Some(e) = &input.evidence {
        fields.opt_text("evidence.counter_evidence", e.counter_evidence.as_deref(), MAX_TEXT);
        fields.opt_text("evidence.violated_requirement", e.violated_requirement.as_deref(), MAX_TEXT);
        fields.opt_text("evidence.affected_scope", e.affected_scope.as_deref(), MAX_TEXT);
        fields.opt_text("evidence.approval_condition", e.approval_condition.as_deref(), MAX_TEXT);
    }
    fields.finish()?;
    Ok(reply(reviews::review(&state.pool, &actor, &pre, &team, &key, n, input).await?))
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
    Path((team, key)): Path<(String, String)>,
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
    Path((team, key)): Path<(String, String)>,
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
    Path((team, key)): Path<(String, String)>,
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

/// The user lifts one agent's lockout early (R10).
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/lockouts/{agent}/lift", tag = "lockouts",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("agent" = String, Path, description = "the locked-out agent")),
    request_body = LiftInput,
    responses((status = 200, description = "lifted", body = ArtifactStatus)))]
async fn lift(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key, agent)): Path<(String, String, String)>,
    Json(input): Json<LiftInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("reason", &input.reason, MAX_TEXT);
    fields.finish()?;
    Ok(reply(lift::lift(&state.pool, &actor, &pre, &team, &key, &agent, &input.reason).await?))
}
