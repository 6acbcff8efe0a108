use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use crate::auth::Caller;
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::service::teams::{self as service, TeamChanges};
use crate::store::teams::TeamRow;
use crate::validate::{Fields, MAX_NAME};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(put_team, get_team))
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProfileName {
    /// R1–R10.
    Standard,
    /// R1–R10 plus grounded rejections and the rejecting reviewer's exclusion (R11).
    Waza,
}

/// A team's policy (R11). On update, an absent field keeps its value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyInput {
    pub profile: Option<ProfileName>,
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

#[derive(Debug, Serialize, ToSchema)]
pub struct Policy {
    pub profile: ProfileName,
    pub required_approvals: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    pub id: String,
    pub display_name: Option<String>,
    pub policy: Policy,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<TeamRow> for Team {
    fn from(t: TeamRow) -> Self {
        let profile = if t.profile == "waza" { ProfileName::Waza } else { ProfileName::Standard };
        Team {
            id: t.id,
            display_name: t.display_name,
            policy: Policy { profile, required_approvals: t.required_approvals },
            created_at: t.created_at,
            updated_at: t.updated_at,
        }
    }
}

/// Create (201) or update (200) a team. Only the server-wide admin token creates teams.
#[utoipa::path(put, path = "/v1/teams/{team}", tag = "teams",
    params(("team" = String, Path, description = "team id: `[a-z0-9][a-z0-9-]{0,62}`")),
    request_body = TeamInput,
    responses((status = 201, description = "created", body = Team), (status = 200, description = "updated", body = Team)))]
async fn put_team(
    State(state): State<AppState>,
    caller: Caller,
    Path(team): Path<String>,
    Json(input): Json<TeamInput>,
) -> Result<(StatusCode, axum::Json<Team>)> {
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
        profile: policy
            .profile
            .map(|p| if matches!(p, ProfileName::Waza) { "waza" } else { "standard" }.into()),
        required_approvals: policy.required_approvals.map(|n| n as i32),
    };
    let (team, created) = service::put_team(&state.pool, &caller, &team, changes).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, axum::Json(team.into())))
}

/// The team and its policy.
#[utoipa::path(get, path = "/v1/teams/{team}", tag = "teams",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the team", body = Team)))]
async fn get_team(
    State(state): State<AppState>,
    caller: Caller,
    Path(team): Path<String>,
) -> Result<axum::Json<Team>> {
    Ok(axum::Json(service::get_team(&state.pool, &caller, &team).await?.into()))
}
