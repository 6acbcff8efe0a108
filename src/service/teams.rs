//! Teams, their agents and their tokens.

use axum::http::StatusCode;
use serde_json::json;
use uuid::Uuid;

use crate::auth::{self, Caller, Scope, team_not_found};
use crate::domain::Profile;
use crate::error::{Error, Result};
use crate::resources::{Agent, CreatedToken, Team};
use crate::service::reads::{Fetched, team_list};
use crate::service::write::{self, Reply};
use crate::store::agents::AgentRow;
use crate::store::events::NewEvent;
use crate::store::teams::TeamRow;
use crate::store::tokens::TokenRow;
use crate::store::{Db, agents, teams, tokens};

/// Changes to a team; `None` keeps the current value (or the default on create).
#[derive(Debug, Default)]
pub struct TeamChanges {
    pub display_name: Option<String>,
    pub profile: Option<Profile>,
    pub required_approvals: Option<i32>,
}

/// Creates the team (`true`) or updates it. Only a server-wide admin creates teams.
pub async fn put_team(pool: &Db, caller: &Caller, id: &str, changes: TeamChanges) -> Result<Reply<Team>> {
    let mut write = write::begin(pool, caller).await?;
    let tx = &mut write.tx;
    let (team, created) = match teams::find_for_update(tx, id).await? {
        Some(mut team) => {
            caller.require(id, Scope::Admin)?;
            team.display_name = changes.display_name.or(team.display_name);
            team.profile = changes.profile.unwrap_or(team.profile);
            team.required_approvals = changes.required_approvals.unwrap_or(team.required_approvals);
            (teams::update(tx, &team).await?, false)
        }
        None => {
            if !caller.is_server_admin() {
                // A team token never sees another team; a missing one looks the same.
                caller.require(id, Scope::Admin)?;
                return Err(Error::Forbidden("only the server-wide admin token creates teams".into()));
            }
            let new = TeamRow {
                id: id.to_owned(),
                display_name: changes.display_name,
                profile: changes.profile.unwrap_or(Profile::Standard),
                required_approvals: changes.required_approvals.unwrap_or(1),
                created_at: Default::default(),
                updated_at: Default::default(),
            };
            match teams::insert(tx, &new).await? {
                Some(team) => (team, true),
                // Another request created it between our read and insert: the client retries.
                None => {
                    return Err(Error::refused(
                        axum::http::StatusCode::CONFLICT,
                        "conflict",
                        "the team was created concurrently; retry",
                    ));
                }
            }
        }
    };
    let kind = if created { "team.created" } else { "team.updated" };
    let data = json!({ "team": team.id, "display_name": team.display_name, "profile": team.profile,
                       "required_approvals": team.required_approvals });
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    let event = NewEvent { artifact: None, kind, actor: None, data };
    write.commit(id, caller, event, (status, team.into())).await
}

pub async fn get_team(pool: &Db, caller: &Caller, id: &str) -> Result<TeamRow> {
    caller.require(id, Scope::Read)?;
    pool.read(async |conn| teams::find(conn, id).await).await?.ok_or_else(|| team_not_found(id))
}

/// Changes to an agent; `None` keeps the current value (or the default on create).
#[derive(Debug, Default)]
pub struct AgentChanges {
    pub display_name: Option<String>,
    pub kind: Option<String>,
    pub roles: Option<Vec<String>>,
    pub can_review: Option<bool>,
    pub can_author: Option<bool>,
    pub expertise: Option<Vec<String>>,
    pub active: Option<bool>,
}

pub async fn put_agent(
    pool: &Db,
    caller: &Caller,
    team: &str,
    id: &str,
    changes: AgentChanges,
) -> Result<Reply<Agent>> {
    caller.require(team, Scope::Coordinator)?;
    let mut write = write::begin(pool, caller).await?;
    let tx = &mut write.tx;
    if !teams::roster_changes(tx, team).await? {
        return Err(team_not_found(team));
    }
    let current = agents::find_for_update(tx, team, id).await?;
    let base = current.unwrap_or_else(|| AgentRow {
        id: id.to_owned(),
        display_name: None,
        kind: "ai".into(),
        roles: vec![],
        can_review: false,
        can_author: true,
        expertise: vec![],
        active: true,
        created_at: Default::default(),
        updated_at: Default::default(),
    });
    let agent = AgentRow {
        display_name: changes.display_name.or(base.display_name),
        kind: changes.kind.unwrap_or(base.kind),
        roles: changes.roles.unwrap_or(base.roles),
        can_review: changes.can_review.unwrap_or(base.can_review),
        can_author: changes.can_author.unwrap_or(base.can_author),
        expertise: changes.expertise.unwrap_or(base.expertise),
        active: changes.active.unwrap_or(base.active),
        ..base
    };
    let (agent, created) = agents::upsert(tx, team, &agent).await?;
    let kind = if created { "agent.created" } else { "agent.updated" };
    let data = json!({ "agent": agent.id, "kind": agent.kind, "roles": agent.roles, "can_review": agent.can_review,
                       "can_author": agent.can_author, "expertise": agent.expertise, "active": agent.active });
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    let event = NewEvent { artifact: None, kind, actor: Some(id), data };
    write.commit(team, caller, event, (status, agent.into())).await
}

/// The agent with its active lockouts, from one snapshot.
pub async fn get_agent(
    pool: &Db,
    caller: &Caller,
    team: &str,
    id: &str,
) -> Result<(AgentRow, Vec<agents::AgentLockoutRow>)> {
    caller.require(team, Scope::Read)?;
    pool.snapshot(async |conn| {
        let agent = agents::find(conn, team, id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("agent '{id}' does not exist in team '{team}'")))?;
        let lockouts = agents::active_lockouts(conn, team, id).await?;
        Ok((agent, lockouts))
    })
    .await
}

/// A page of the team's agents, with the ETag of the team's lists.
pub async fn list_agents(
    pool: &Db,
    caller: &Caller,
    team: &str,
    cursor: Option<&str>,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<AgentRow>>> {
    team_list(pool, caller, team, held, async |conn| Ok(agents::list(conn, team, cursor, limit).await?)).await
}

/// Creates a team token; the secret is returned here once and stored only as its hash.
pub async fn create_token(
    pool: &Db,
    caller: &Caller,
    team: &str,
    name: &str,
    scope: Scope,
    agent: Option<&str>,
) -> Result<Reply<CreatedToken>> {
    caller.require(team, Scope::Admin)?;
    match (scope, agent) {
        (Scope::Agent, None) => return Err(Error::invalid("agent", "an `agent` token names its agent")),
        (Scope::Agent, Some(_)) | (_, None) => {}
        (_, Some(_)) => return Err(Error::invalid("agent", "only an `agent` token names an agent")),
    }
    let mut write = write::begin(pool, caller).await?;
    let tx = &mut write.tx;
    teams::find(tx, team).await?.ok_or_else(|| team_not_found(team))?;
    if let Some(agent) = agent
        && agents::find(tx, team, agent).await?.is_none()
    {
        return Err(Error::invalid("agent", format!("agent '{agent}' does not exist in team '{team}'")));
    }
    let secret = auth::new_secret();
    let token =
        tokens::insert(tx, Some(team), name, scope.as_str(), agent, &auth::hash_secret(&secret)).await?;
    let data =
        json!({ "token_id": token.id, "name": token.name, "scope": token.scope, "agent": token.agent_id });
    let event = NewEvent { artifact: None, kind: "token.created", actor: None, data };
    let created = CreatedToken { info: token.into(), token: Some(secret) };
    // A replay of this request answers without the secret: it is never stored in clear.
    let without_secret = |created: &CreatedToken| {
        serde_json::to_vec(&CreatedToken { info: created.info.clone(), token: None })
    };
    write.commit_storing(team, caller, event, (StatusCode::CREATED, created), without_secret).await
}

pub async fn list_tokens(pool: &Db, caller: &Caller, team: &str) -> Result<Vec<TokenRow>> {
    caller.require(team, Scope::Admin)?;
    pool.read(async |conn| {
        teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok(tokens::list(conn, team).await?)
    })
    .await
}

/// Revokes a token with immediate effect: every lookup reads the database.
pub async fn revoke_token(pool: &Db, caller: &Caller, team: &str, id: Uuid) -> Result<Reply<()>> {
    caller.require(team, Scope::Admin)?;
    let mut write = write::begin(pool, caller).await?;
    let token = tokens::revoke(&mut write.tx, team, id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("token '{id}' does not exist in team '{team}'")))?;
    let data = json!({ "token_id": token.id, "name": token.name, "scope": token.scope });
    let event = NewEvent { artifact: None, kind: "token.revoked", actor: None, data };
    write.commit(team, caller, event, (StatusCode::NO_CONTENT, ())).await
}
