use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::agents::{self, AgentChanges};
use crate::app::unit::Preconditions;
use crate::domain::AgentKind;
use crate::domain::{AgentId, TeamId};
use crate::error::Result;
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::{PageQuery, paginate};
use crate::http::preconditions::{self, reply};
use crate::http::state::AppState;
use crate::resources::{Agent, AgentDetail, AgentPage};
use crate::validate::{Fields, MAX_NAME, MAX_TAG};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(put_agent, get_agent)).routes(routes!(list_agents))
}

/// Create or update an agent. On update, an absent field keeps its value; on create it takes
/// the default shown.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentInput {
    #[schema(max_length = 200)]
    pub display_name: Option<String>,
    /// Default `ai`.
    pub kind: Option<AgentKind>,
    /// Free labels such as `lead`, `tester`, `code-reviewer`; default none.
    #[schema(max_items = 64)]
    pub roles: Option<Vec<String>>,
    /// May give verdicts (R1); default false.
    pub can_review: Option<bool>,
    /// May write versions; default true.
    pub can_author: Option<bool>,
    /// Tags an escalation may ask for (R5), such as `typescript`; default none.
    #[schema(max_items = 64)]
    pub expertise: Option<Vec<String>>,
    /// Other names of the agent (R16), replacing the current ones: a runtime's subagent name
    /// (Claude Code's and Codex's `agent_type`), a commit author's e-mail address. Each names
    /// one agent of the team: another agent's id or alias is refused with 409 `alias_taken`.
    /// Matched exactly; default none.
    #[schema(max_items = 64, example = json!(["revision-engineer", "revision-eng@example.com"]))]
    pub aliases: Option<Vec<String>>,
    /// Retired agents keep their history but may not act; default true.
    pub active: Option<bool>,
}

/// Create or update an agent of the team.
///
/// Creates the agent (201) or updates it (200). On update an absent field keeps its value; on
/// create it takes the default its description gives. Retire an agent with `active: false`: it
/// keeps its history but may no longer act.
#[utoipa::path(put, path = "/v1/teams/{team}/agents/{agent}", tag = "agents",
    params(("team" = String, Path, description = "team id"),
           ("agent" = String, Path, description = "agent id: `[a-z0-9][a-z0-9-]{0,62}`")),
    request_body = AgentInput,
    responses((status = 201, description = "created", body = Agent), (status = 200, description = "updated", body = Agent)))]
async fn put_agent(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, agent)): Path<(TeamId, AgentId)>,
    Json(input): Json<AgentInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.opt_text("display_name", input.display_name.as_deref(), MAX_NAME);
    fields.labels("roles", input.roles.as_deref().unwrap_or_default(), MAX_TAG);
    fields.labels("expertise", input.expertise.as_deref().unwrap_or_default(), MAX_TAG);
    fields.labels("aliases", input.aliases.as_deref().unwrap_or_default(), MAX_NAME);
    fields.finish()?;
    let changes = AgentChanges {
        display_name: input.display_name,
        kind: input.kind,
        roles: input.roles,
        can_review: input.can_review,
        can_author: input.can_author,
        expertise: input.expertise,
        aliases: input.aliases,
        active: input.active,
    };
    Ok(reply(agents::put_agent(&state.pool, &actor, &pre, &team, &agent, changes).await?))
}

/// One agent with its active lockouts.
///
/// The artifacts the agent may not write until a revision of each is approved (R3, R8).
#[utoipa::path(get, path = "/v1/teams/{team}/agents/{agent}", tag = "agents",
    params(("team" = String, Path, description = "team id"), ("agent" = String, Path, description = "agent id")),
    responses((status = 200, description = "the agent", body = AgentDetail)))]
async fn get_agent(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, agent)): Path<(TeamId, AgentId)>,
) -> Result<axum::Json<AgentDetail>> {
    let (agent, lockouts) = agents::get_agent(&state.pool, &actor, &team, &agent).await?;
    Ok(axum::Json(AgentDetail {
        agent: agent.into(),
        lockouts: lockouts.into_iter().map(Into::into).collect(),
    }))
}

/// The team's agents, a page at a time.
///
/// In id order, retired agents included (`active: false`). Carries an `ETag`: send it back as
/// `If-None-Match` to be answered 304 while the team is unchanged.
#[utoipa::path(get, path = "/v1/teams/{team}/agents", tag = "agents",
    params(("team" = String, Path, description = "team id"), PageQuery),
    responses((status = 200, description = "a page of agents", body = AgentPage, headers(("ETag" = String, description = "changes when the team changes"))), (status = 304, description = "not modified: `If-None-Match` matches the ETag")))]
async fn list_agents(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(page): Query<PageQuery>,
) -> Result<Response> {
    let limit = page.limit()?;
    let held = preconditions::held(&headers);
    let fetched =
        agents::list_agents(&state.pool, &actor, &team, page.cursor.as_deref(), limit + 1, held).await?;
    Ok(preconditions::respond(fetched, |rows| {
        let (items, next_cursor) = paginate(rows, limit, |a| a.id.clone());
        AgentPage { items: items.into_iter().map(Into::into).collect(), next_cursor }
    }))
}
