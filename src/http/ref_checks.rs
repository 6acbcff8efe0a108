//! Ref checks: may this commit land (R17)?

use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::app::actor::Actor;
use crate::app::ref_check;
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::resources::{RefCheckInput, RefCheckResult};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ref_check))
}

/// May this commit, which changes these files, land?
///
/// For CI, as a required check before a merge (R17): `allowed` is true when every artifact
/// whose `paths` globs cover a changed file has an approved version whose `ref` is the commit's
/// SHA (one a prefix of the other, both at least 7 hexadecimal digits; the newest such version
/// when several are), and when no artifact covers any. Each covering artifact is listed with the
/// files it covers, the version found and why it is or is not approved. A read: nothing changes.
#[utoipa::path(post, path = "/v1/teams/{team}/ref-checks", tag = "checks",
    params(("team" = String, Path, description = "team id")),
    request_body = RefCheckInput,
    responses((status = 200, description = "`allowed`, and each covering artifact's verdict", body = RefCheckResult),
              (status = 422, description = "`invalid_field`: a field has the wrong type, is unknown, or fails validation; among them a `ref` that is not 7 to 40 hexadecimal digits and a path that cannot be placed in the repository", body = crate::http::error::Problem,
               content_type = "application/problem+json")))]
async fn ref_check(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
    Json(input): Json<RefCheckInput>,
) -> Result<axum::Json<RefCheckResult>> {
    Ok(axum::Json(ref_check::ref_check(&state.pool, &state.coverage, &actor, &team, input).await?))
}
