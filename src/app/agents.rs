//! A team's agents: the roster.

use crate::app::actor::{Actor, team_not_found};
use crate::app::reads::{Fetched, team_list};
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::Scope;
use crate::domain::{AgentId, AgentKind, Code, TeamId};
use crate::error::{Error, Result};
use crate::resources::Agent;
use crate::resources::events::{AgentChanged, EventData};
use crate::store::agents::AgentRow;
use crate::store::events::NewEvent;
use crate::store::{Db, agents, teams};

/// Changes to an agent; `None` keeps the current value (or the default on create).
#[derive(Debug, Default)]
pub struct AgentChanges {
    pub display_name: Option<String>,
    pub kind: Option<AgentKind>,
    pub roles: Option<Vec<String>>,
    pub can_review: Option<bool>,
    pub can_author: Option<bool>,
    pub expertise: Option<Vec<String>>,
    pub aliases: Option<Vec<String>>,
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
            aliases: vec![],
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
            aliases: changes.aliases.clone().unwrap_or(base.aliases),
            active: changes.active.unwrap_or(base.active),
            ..base
        };
        // R16: an agent's id and aliases each name it alone.
        let names: Vec<String> =
            std::iter::once(agent.id.clone()).chain(agent.aliases.iter().cloned()).collect();
        if let Some((name, other)) = agents::names_taken(tx, team, id, &names).await?.into_iter().next() {
            return Err(Error::refused(
                Code::AliasTaken,
                format!("'{name}' already names agent '{other}' in team '{team}'"),
            ));
        }
        let (agent, created) = agents::upsert(tx, team, &agent).await?;
        let agent = Agent::from(agent);
        let changed = AgentChanged {
            agent: agent.id.clone(),
            kind: agent.kind,
            roles: agent.roles.clone(),
            can_review: agent.can_review,
            can_author: agent.can_author,
            expertise: agent.expertise.clone(),
            aliases: agent.aliases.clone(),
            active: agent.active,
        };
        let (change, data) = if created {
            (Change::Created, EventData::AgentCreated(changed))
        } else {
            (Change::Updated, EventData::AgentUpdated(changed))
        };
        let event = NewEvent { artifact: None, actor: Some(id.to_string()), data };
        Ok(Done::new(change, agent, event))
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
    team_list(pool, None, actor, team, held, async |conn| Ok(agents::list(conn, team, cursor, limit).await?))
        .await
}
