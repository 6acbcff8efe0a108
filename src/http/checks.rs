//! Checks: may this agent write this artifact or these files?

use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::check;
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::http::state::AppState;
use crate::resources::{CheckInput, CheckResult};
use crate::validate::{Fields, MAX_NAME};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(check))
}

/// May this agent write this artifact or these files?
///
/// For hooks: before spawning an agent on an artifact, or before a tool writes files. `allowed` is
/// false when there is any denial; each denial names the artifact and the `code` a write would be
/// refused with. File paths are matched against the `paths` globs of the team's artifacts.
#[utoipa::path(post, path = "/v1/teams/{team}/checks", tag = "checks",
    params(("team" = String, Path, description = "team id")),
    request_body = CheckInput,
    responses((status = 200, description = "`allowed`, and each denial with its code", body = CheckResult),
              (status = 422, description = "`invalid_field`: a field has the wrong type, is unknown, or fails validation; among them a path that cannot be placed in the repository (send it relative to the root)", body = crate::http::error::Problem,
               content_type = "application/problem+json")))]
async fn check(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
    Json(input): Json<CheckInput>,
) -> Result<axum::Json<CheckResult>> {
    let mut fields = Fields::new();
    if let Some(alias) = &input.alias {
        fields.line("alias", alias, MAX_NAME);
    }
    fields.finish()?;
    Ok(axum::Json(check::check(&state.pool, &state.index, &state.coverage, &actor, &team, input).await?))
}
