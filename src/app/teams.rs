//! Teams, their agents and their tokens.

use serde_json::json;
use uuid::Uuid;

use crate::app::actor::{Actor, team_not_found};
use crate::app::reads::{Fetched, team_list};
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::auth;
use crate::domain::Scope;
use crate::domain::{AgentId, TeamId};
use crate::domain::{AgentKind, Code, Profile};
use crate::error::{Error, Result};
use crate::resources::{Agent, CreatedToken, Team};
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

/// Creates the team or updates it. Only a server-wide admin creates teams.
#[tracing::instrument(skip_all, fields(team = %id), err(level = "debug"))]
pub async fn put_team(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    id: &str,
    changes: TeamChanges,
) -> Result<Outcome<Team>> {
    unit::run(pool, actor, pre, Some(id), async |w| {
        let tx = &mut w.tx;
        let (team, change) = match teams::find_for_update(tx, id).await? {
            Some(mut team) => {
                actor.require(id, Scope::Admin)?;
                team.display_name = changes.display_name.clone().or(team.display_name);
                team.profile = changes.profile.unwrap_or(team.profile);
                team.required_approvals = changes.required_approvals.unwrap_or(team.required_approvals);
                (teams::update(tx, &team).await?, Change::Updated)
            }
            None => {
                if !actor.is_server_admin() {
                    // A team token never sees another team; a missing one looks the same.
                    actor.require(id, Scope::Admin)?;
                    return Err(Error::Forbidden("only the server-wide admin token creates teams".into()));
                }
                let new = TeamRow {
                    id: id.to_string(),
                    display_name: changes.display_name.clone(),
                    profile: changes.profile.unwrap_or(Profile::Standard),
                    required_approvals: changes.required_approvals.unwrap_or(1),
                    created_at: Default::default(),
                    updated_at: Default::default(),
                };
                // `None`: another request created it between our read and insert; the client retries.
                let created = teams::insert(tx, &new).await?.ok_or_else(|| {
                    Error::refused(Code::Conflict, "the team was created concurrently; retry")
                })?;
                (created, Change::Created)
            }
        };
        let kind = if change == Change::Created { "team.created" } else { "team.updated" };
        let data = json!({ "team": team.id, "display_name": team.display_name, "profile": team.profile,
                           "required_approvals": team.required_approvals });
        let event = NewEvent { artifact: None, kind, actor: None, data };
        Ok(Done::new(change, team.into(), event))
    })
    .await
}

pub async fn get_team(pool: &Db, actor: &Actor, id: &str) -> Result<TeamRow> {
    actor.require(id, Scope::Read)?;
    pool.read(async |conn| teams::find(conn, id).await).await?.ok_or_else(|| team_not_found(id))
}

/// Changes to an agent; `None` keeps the current value (or the default on create).
#[derive(Debug, Default)]
pub struct AgentChanges {
    pub display_name: Option<String>,
    pub kind: Option<AgentKind>,
    pub roles: Option<Vec<String>>,
    pub can_review: Option<bool>,
    pub can_author: Option<bool>,
    pub expertise: Option<Vec<String>>,
    pub active: Option<bool>,
}

/// Creates or updates an agent: a change of the team's roster, ordered against every write that
/// decides on it (see `store::teams::roster_changes`).
#[tracing::instrument(skip_all, fields(%team, agent = %id), err(level = "debug"))]
pub async fn put_agent(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: &AgentId,
    changes: AgentChanges,
) -> Result<Outcome<Agent>> {
    actor.require(team, Scope::Coordinator)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        if !teams::roster_changes(tx, team).await? {
            return Err(team_not_found(team));
        }
        let current = agents::find_for_update(tx, team, id).await?;
        let base = current.unwrap_or_else(|| AgentRow {
            id: id.to_string(),
            display_name: None,
            kind: AgentKind::Ai,
            roles: vec![],
            can_review: false,
            can_author: true,
            expertise: vec![],
            active: true,
            created_at: Default::default(),
            updated_at: Default::default(),
        });
        let agent = AgentRow {
            display_name: changes.display_name.clone().or(base.display_name),
            kind: changes.kind.unwrap_or(base.kind),
            roles: changes.roles.clone().unwrap_or(base.roles),
            can_review: changes.can_review.unwrap_or(base.can_review),
            can_author: changes.can_author.unwrap_or(base.can_author),
            expertise: changes.expertise.clone().unwrap_or(base.expertise),
            active: changes.active.unwrap_or(base.active),
            ..base
        };
        let (agent, created) = agents::upsert(tx, team, &agent).await?;
        let (change, kind) =
            if created { (Change::Created, "agent.created") } else { (Change::Updated, "agent.updated") };
        let data = json!({ "agent": agent.id, "kind": agent.kind, "roles": agent.roles, "can_review": agent.can_review,
                           "can_author": agent.can_author, "expertise": agent.expertise, "active": agent.active });
        let event = NewEvent { artifact: None, kind, actor: Some(id.to_string()), data };
        Ok(Done::new(change, agent.into(), event))
    })
    .await
}

/// The agent with its active lockouts, from one snapshot.
pub async fn get_agent(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    id: &str,
) -> Result<(AgentRow, Vec<agents::AgentLockoutRow>)> {
    actor.require(team, Scope::Read)?;
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
    actor: &Actor,
    team: &TeamId,
    cursor: Option<&str>,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<AgentRow>>> {
    team_list(pool, actor, team, held, async |conn| Ok(agents::list(conn, team, cursor, limit).await?)).await
}

/// Creates a team token; the secret is returned here once and stored only as its hash.
#[tracing::instrument(skip_all, fields(%team, scope = scope.as_str()), err(level = "debug"))]
pub async fn create_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    name: &str,
    scope: Scope,
    agent: Option<&str>,
) -> Result<Outcome<CreatedToken>> {
    actor.require(team, Scope::Admin)?;
    match (scope, agent) {
        (Scope::Agent, None) => return Err(Error::invalid("agent", "an `agent` token names its agent")),
        (Scope::Agent, Some(_)) | (_, None) => {}
        (_, Some(_)) => return Err(Error::invalid("agent", "only an `agent` token names an agent")),
    }
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        teams::find(tx, team).await?.ok_or_else(|| team_not_found(team))?;
        if let Some(agent) = agent
            && agents::find(tx, team, agent).await?.is_none()
        {
            return Err(Error::invalid("agent", format!("agent '{agent}' does not exist in team '{team}'")));
        }
        let secret = auth::new_secret();
        let token =
            tokens::insert(tx, Some(team), name, scope, agent, &auth::hash_secret(&secret)).await?;
        let data =
            json!({ "token_id": token.id, "name": token.name, "scope": token.scope, "agent": token.agent_id });
        let event = NewEvent { artifact: None, kind: "token.created", actor: None, data };
        let info = crate::resources::Token::from(token);
        // A replay answers the token without its secret, which is never stored in clear.
        Done::new(Change::Created, CreatedToken { info: info.clone(), token: secret }, event)
            .replayed_as(Change::Updated, info)
    })
    .await
}

pub async fn list_tokens(pool: &Db, actor: &Actor, team: &TeamId) -> Result<Vec<TokenRow>> {
    actor.require(team, Scope::Admin)?;
    pool.read(async |conn| {
        teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok(tokens::list(conn, team).await?)
    })
    .await
}

/// Revokes a token with immediate effect.
#[tracing::instrument(skip_all, fields(%team, token = %id), err(level = "debug"))]
pub async fn revoke_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: Uuid,
) -> Result<Outcome<()>> {
    actor.require(team, Scope::Admin)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let token = tokens::revoke(&mut w.tx, team, id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("token '{id}' does not exist in team '{team}'")))?;
        let data = json!({ "token_id": token.id, "name": token.name, "scope": token.scope });
        let event = NewEvent { artifact: None, kind: "token.revoked", actor: None, data };
        Ok(Done::new(Change::Removed, (), event))
    })
    .await
}

/// Server-wide tokens (tokens of no team) are the server-wide admin's alone.
fn require_server_admin(actor: &Actor) -> Result<()> {
    if actor.is_server_admin() {
        Ok(())
    } else {
        Err(Error::Forbidden("only a server-wide admin token manages server-wide tokens".into()))
    }
}

/// Creates a server-wide admin token (for every team), e.g. to replace the bootstrap token;
/// the secret is returned here once. No team's log records it: the service log does.
#[tracing::instrument(skip_all, err(level = "debug"))]
pub async fn create_server_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    name: &str,
) -> Result<Outcome<CreatedToken>> {
    require_server_admin(actor)?;
    unit::run(pool, actor, pre, None, async |w| {
        let secret = auth::new_secret();
        let hash = auth::hash_secret(&secret);
        let token = tokens::insert(&mut w.tx, None, name, Scope::Admin, None, &hash).await?;
        tracing::info!(token = %token.id, name = %token.name, by = %actor.token_name, "created a server-wide token");
        let info = crate::resources::Token::from(token);
        Done::server_wide(Change::Created, CreatedToken { info: info.clone(), token: secret })
            .replayed_as(Change::Updated, info)
    })
    .await
}

/// The live server-wide tokens, without secrets (the one set by `REVIEWLOCK_ADMIN_TOKEN` is
/// configuration, not a stored token, and is not among them).
pub async fn list_server_tokens(pool: &Db, actor: &Actor) -> Result<Vec<TokenRow>> {
    require_server_admin(actor)?;
    pool.read(async |conn| Ok(tokens::list_server_wide(conn).await?)).await
}

/// Revokes a server-wide token with immediate effect (a token may revoke itself).
#[tracing::instrument(skip_all, fields(token = %id), err(level = "debug"))]
pub async fn revoke_server_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    id: Uuid,
) -> Result<Outcome<()>> {
    require_server_admin(actor)?;
    unit::run(pool, actor, pre, None, async |w| {
        let token = tokens::revoke_server_wide(&mut w.tx, id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("no server-wide token has id '{id}'")))?;
        tracing::info!(token = %token.id, name = %token.name, by = %actor.token_name, "revoked a server-wide token");
        Ok(Done::server_wide(Change::Removed, ()))
    })
    .await
}
