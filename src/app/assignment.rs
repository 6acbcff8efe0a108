//! Assigning the reviser of a rejected artifact (R5) and releasing the assignment.

use crate::app::actor::Actor;
use crate::app::artifact::ArtifactWrite;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::Scope;
use crate::domain::{self, AssignedBy, AssignmentEnd, Code, State};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::{Error, Result, ResultExt};
use crate::resources::events::{AssignmentCreated, AssignmentReleased, EventData};
use crate::resources::{ArtifactStatus, AssignmentInput};
use crate::store::Db;
use crate::store::artifacts as store;
use crate::store::events::NewEvent;

#[tracing::instrument(skip_all, fields(%team, %key), err(level = "debug"))]
pub async fn assign(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
    input: AssignmentInput,
) -> Result<Outcome<ArtifactStatus>> {
    actor.require(team, Scope::Coordinator)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let mut a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        domain::decide_assignment(&a.rules, &a.roster, a.policy, &input.agent)?;
        let (id, cycle, note) = (a.id(), a.rules.cycle, input.note.as_deref());
        let assignment =
            store::insert_assignment(tx, team, id, cycle, &input.agent, note, AssignedBy::Coordinator)
                .await
                .on_constraint("assignments_one_active", || {
                    Error::refused(Code::InvalidState, "the artifact already has an active assignment")
                })?;
        a.loaded.assignment = Some(assignment);
        a.set_state(tx, State::InRevision).await?;
        let data = EventData::AssignmentCreated(AssignmentCreated {
            agent: input.agent.to_string(),
            note: input.note.clone(),
            state: State::InRevision,
        });
        let event = NewEvent { artifact: Some(key), actor: Some(input.agent.to_string()), data };
        Ok(Done::new(Change::Created, a.status(), event))
    })
    .await
}

#[tracing::instrument(skip_all, fields(%team, %key), err(level = "debug"))]
pub async fn release(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
) -> Result<Outcome<ArtifactStatus>> {
    actor.require(team, Scope::Coordinator)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let mut a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        let released = domain::decide_release(&a.rules)?;
        store::end_assignment(tx, team, a.id(), AssignmentEnd::Released).await?;
        a.loaded.assignment = None;
        a.set_state(tx, State::ChangesRequested).await?;
        let data = EventData::AssignmentReleased(AssignmentReleased {
            agent: released.clone(),
            state: State::ChangesRequested,
        });
        let event = NewEvent { artifact: Some(key), actor: Some(released), data };
        Ok(Done::new(Change::Updated, a.status(), event))
    })
    .await
}
