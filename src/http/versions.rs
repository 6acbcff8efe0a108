//! An artifact's versions and the reviews of each.

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{reads, review as reviews, submit_version as versions};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::{Error, Result};
use crate::http::artifacts::{MAX_REF, version_fields};
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::{PageQuery, limit, paginate};
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::{ReviewInput, ReviewOutcome, Version, VersionInput, VersionPage};
use crate::validate::{Fields, MAX_TAG, MAX_TEXT};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(submit_version, list_versions))
        .routes(routes!(get_version))
        .routes(routes!(review))
}

/// Submit the next version.
///
/// Accepted as the assignee's revision after a rejection (R5, R6), as a supersede of the version
/// under review by its own author, as the start of a new cycle after approval, and never from a
/// locked-out author or contributor. The new version is in review.
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/versions", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key")),
    request_body = VersionInput,
    responses((status = 201, description = "the new version, in review", body = Version)))]
async fn submit_version(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Json(input): Json<VersionInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    version_fields(
        &mut fields,
        input.contributors.as_deref(),
        input.git_ref.as_deref(),
        input.summary.as_deref(),
    );
    fields.finish()?;
    Ok(reply(versions::submit_version(&state.pool, &actor, &pre, &team, &key, input).await?))
}

/// The artifact's versions with their reviews, a page at a time.
///
/// Oldest first, every cycle included; each with its author, contributors, `ref` and reviews.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}/versions", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"), PageQuery),
    responses((status = 200, description = "a page of versions", body = VersionPage)))]
async fn list_versions(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, key)): Path<(TeamId, ArtifactKey)>,
    Query(page): Query<PageQuery>,
) -> Result<axum::Json<VersionPage>> {
    let limit = limit(page.limit)?;
    let after = match page.cursor.as_deref() {
        None => 0,
        Some(c) => c.parse().map_err(|_| Error::invalid("cursor", "is not a cursor this list returned"))?,
    };
    let rows = reads::versions(&state.pool, &actor, &team, &key, after, limit + 1).await?;
    let (items, next_cursor) = paginate(rows, limit, |v| v.number.to_string());
    Ok(axum::Json(VersionPage { items, next_cursor }))
}

/// One version with its reviews.
///
/// Any version of the artifact, current or not, by its number.
#[utoipa::path(get, path = "/v1/teams/{team}/artifacts/{key}/versions/{n}", tag = "versions",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("n" = i32, Path, description = "version number")),
    responses((status = 200, description = "the version", body = Version)))]
async fn get_version(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, key, n)): Path<(TeamId, ArtifactKey, i32)>,
) -> Result<axum::Json<Version>> {
    Ok(axum::Json(reads::version(&state.pool, &actor, &team, &key, n).await?))
}

/// Record a verdict on a version.
///
/// Only the current version takes verdicts, from an active reviewer not credited on it (R1, R2). A
/// rejection carries a `reason` and a `remedy`, locks out everyone credited on the version for the
/// rest of the cycle (R3), and deadlocks the artifact when nobody is left who may revise it (R9);
/// an approval with enough approvals closes the cycle and clears its lockouts (R8).
#[utoipa::path(post, path = "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews", tag = "reviews",
    params(("team" = String, Path, description = "team id"), ("key" = String, Path, description = "artifact key"),
           ("n" = i32, Path, description = "version number")),
    request_body = ReviewInput,
    responses((status = 201, description = "recorded; the artifact's new status", body = ReviewOutcome)))]
async fn review(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, key, n)): Path<(TeamId, ArtifactKey, i32)>,
    Json(input): Json<ReviewInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.opt_text("ref", input.git_ref.as_deref(), MAX_REF);
    fields.opt_text("reason", input.reason.as_deref(), MAX_TEXT);
    if let Some(remedy) = &input.remedy {
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
