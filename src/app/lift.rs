//! The user's early lift of one lockout (R10).

use crate::app::actor::Actor;
use crate::app::artifact::ArtifactWrite;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain;
use crate::domain::Scope;
use crate::domain::{AgentId, ArtifactKey, TeamId};
use crate::error::Result;
use crate::resources::ArtifactStatus;
use crate::resources::events::{EventData, LockoutLifted};
use crate::store::Db;
use crate::store::artifacts as store;
use crate::store::events::NewEvent;

#[tracing::instrument(skip_all, fields(%team, %key, %agent), err(level = "debug"))]
pub async fn lift(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
    agent: &AgentId,
    reason: &str,
) -> Result<Outcome<ArtifactStatus>> {
    actor.require(team, Scope::User)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let mut a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        domain::decide_lift(&a.rules, agent)?;
        store::lift_lockout(tx, team, a.id(), agent, reason).await?;
        a.loaded.lockouts.retain(|l| l.agent_id != agent.as_str());
        a.loaded.artifact = store::touch(tx, team, a.id()).await?;
        let data =
            EventData::LockoutLifted(LockoutLifted { agent: agent.to_string(), reason: reason.to_owned() });
        let event = NewEvent { artifact: Some(key), actor: Some(agent.to_string()), data };
        Ok(Done::new(Change::Updated, a.status(), event))
    })
    .await
}
