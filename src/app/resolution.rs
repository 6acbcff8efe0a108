//! The user's resolution of a deadlock (R9): assign an agent, or abandon the artifact.

use serde_json::json;

use crate::app::actor::Actor;
use crate::app::artifact::ArtifactWrite;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::Scope;
use crate::domain::{self, Resolution};
use crate::domain::{ArtifactKey, TeamId};
use crate::domain::{AssignedBy, ResolutionAction};
use crate::error::{Error, Result};
use crate::metrics::Counted;
use crate::resources::events::{EscalationResolved, EventData};
use crate::resources::{ArtifactStatus, ResolutionInput};
use crate::store::Db;
use crate::store::artifacts as store;
use crate::store::events::NewEvent;

#[tracing::instrument(skip_all, fields(%team, %key), err(level = "debug"))]
pub async fn resolve(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
    input: ResolutionInput,
) -> Result<Outcome<ArtifactStatus>> {
    actor.require(team, Scope::User)?;
    let resolution = match (input.action, input.agent.as_deref()) {
        (ResolutionAction::Assign, Some(agent)) => Resolution::Assign(agent),
        (ResolutionAction::Assign, None) => {
            return Err(Error::invalid("agent", "an `assign` resolution names the agent"));
        }
        (ResolutionAction::Abandon, None) => Resolution::Abandon,
        (ResolutionAction::Abandon, Some(_)) => {
            return Err(Error::invalid("agent", "an `abandon` resolution names no agent"));
        }
    };
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let mut a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        let state = domain::decide_resolution(&a.rules, &a.roster, a.policy, resolution)?;
        let (id, cycle) = (a.id(), a.rules.cycle);
        if let Resolution::Assign(agent) = resolution {
            let reason = Some(input.reason.as_str());
            a.loaded.assignment =
                Some(store::insert_assignment(tx, team, id, cycle, agent, reason, AssignedBy::User).await?);
        }
        a.set_state(tx, state).await?;
        let action = input.action.as_str();
        let resolution =
            json!({ "action": action, "agent": input.agent, "reason": input.reason, "by": actor.token_name });
        store::resolve_escalation(tx, team, id, &resolution).await?;
        a.loaded.escalation = None;
        w.count(Counted::DeadlockResolved(input.action));
        let data = EventData::EscalationResolved(EscalationResolved {
            action: input.action,
            agent: input.agent.as_ref().map(ToString::to_string),
            reason: input.reason.clone(),
            state,
        });
        let event =
            NewEvent { artifact: Some(key), actor: input.agent.as_ref().map(ToString::to_string), data };
        Ok(Done::new(Change::Updated, a.status(), event))
    })
    .await
}
