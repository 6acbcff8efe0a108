use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::teams::{self, TeamChanges};
use crate::app::unit::Preconditions;
use crate::domain::Profile;
use crate::domain::TeamId;
use crate::error::{Error, Result};
use crate::http::extract::{Json, Path};
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::Team;
use crate::validate::{Fields, MAX_NAME};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(put_team, get_team))
}

/// A team's policy (R11). On update, an absent field keeps its value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyInput {
    pub profile: Option<Profile>,
    /// Distinct approvals that close a version, 1 to 100.
    #[schema(minimum = 1, maximum = 100)]
    pub required_approvals: Option<i64>,
}

/// Create or update a team. On update, an absent field keeps its value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamInput {
    #[schema(max_length = 200)]
    pub display_name: Option<String>,
    pub policy: Option<PolicyInput>,
}

/// Create or update a team.
///
/// Creates the team (201) or updates its display name and policy (200); an absent field keeps its
/// value. Only a server-wide admin token creates teams; a team's admin token updates its own.
#[utoipa::path(put, path = "/v1/teams/{team}", tag = "teams",
    params(("team" = String, Path, description = "team id: `[a-z0-9][a-z0-9-]{0,62}`")),
    request_body = TeamInput,
    responses((status = 201, description = "created", body = Team), (status = 200, description = "updated", body = Team)))]
async fn put_team(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(team): Path<String>,
    Json(input): Json<TeamInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.slug("team", &team);
    fields.opt_text("display_name", input.display_name.as_deref(), MAX_NAME);
    let policy = input.policy.unwrap_or(PolicyInput { profile: None, required_approvals: None });
    if let Some(n) = policy.required_approvals
        && !(1..=100).contains(&n)
    {
        fields.add("policy.required_approvals", "must be between 1 and 100");
    }
    fields.finish()?;
    let changes = TeamChanges {
        display_name: input.display_name,
        profile: policy.profile,
        required_approvals: policy.required_approvals.map(|n| n as i32),
    };
    let team = TeamId::parse(&team).ok_or_else(|| Error::invalid("team", TeamId::EXPECTED))?;
    Ok(reply(teams::put_team(&state.pool, &actor, &pre, &team, changes).await?))
}

/// The team and its policy.
///
/// The policy's `profile` (`standard` or `waza`) and `required_approvals` decide how reviews are
/// judged (R11).
#[utoipa::path(get, path = "/v1/teams/{team}", tag = "teams",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the team", body = Team)))]
async fn get_team(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
) -> Result<axum::Json<Team>> {
    Ok(axum::Json(teams::get_team(&state.pool, &actor, &team).await?.into()))
}
