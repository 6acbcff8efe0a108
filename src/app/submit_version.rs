//! The next version of an artifact (R5, R6, R11): the assignee's revision, a supersede by the
//! author of the version under review, or a new cycle after approval.

use crate::app::actor::Actor;
use crate::app::artifact::{ArtifactWrite, LOCKED_OUT_CREDIT, contributor_rows, locked_out_credit};
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::app::views;
use crate::domain::{self, AssignmentEnd, Credits, State, VersionKind};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::{Result, ResultExt};
use crate::resources::events::{EventData, VersionSubmitted};
use crate::resources::{Version, VersionInput};
use crate::store::Db;
use crate::store::artifacts::{self as store, ArtifactUpdate, NewVersion};
use crate::store::events::NewEvent;

#[tracing::instrument(skip_all, fields(%team, %key), err(level = "debug"))]
pub async fn submit_version(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
    input: VersionInput,
) -> Result<Outcome<Version>> {
    let contributors = input.contributors.clone().unwrap_or_default();
    actor.require_credits(team, &input.author, contributors.iter().map(|c| c.agent.as_str()))?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        let credits = Credits { author: &input.author, contributors: &contributors };
        let outcome = domain::decide_version(&a.rules, &a.roster, a.policy, credits)?;
        let version = NewVersion {
            number: outcome.number,
            cycle: outcome.cycle,
            author: &input.author,
            contributors: &contributors,
            git_ref: input.git_ref.as_deref(),
            summary: input.summary.as_deref(),
        };
        let row = store::insert_version(tx, team, a.id(), &version)
            .await
            .on_constraint(LOCKED_OUT_CREDIT, locked_out_credit)?;
        if outcome.kind == VersionKind::Revision {
            store::end_assignment(tx, team, a.id(), AssignmentEnd::Version).await?;
        }
        // A supersede keeps the cycle's pending remedy for the record; any other version ends it.
        let pending = a.rules.pending_remedy.as_ref().filter(|_| outcome.kind == VersionKind::Supersede);
        let update = ArtifactUpdate {
            state: State::InReview,
            cycle: outcome.cycle,
            current_version: outcome.number,
            pending_remedy: pending,
        };
        store::update(tx, team, a.id(), update).await?;
        let data = EventData::VersionSubmitted(VersionSubmitted {
            version: outcome.number,
            cycle: outcome.cycle,
            kind: outcome.kind.into(),
            author: input.author.to_string(),
            contributors: input.contributors.clone(),
            state: State::InReview,
        });
        let event = NewEvent { artifact: Some(key), actor: Some(input.author.to_string()), data };
        let reply = views::version(row, &contributor_rows(&contributors), Vec::new());
        Ok(Done::new(Change::Created, reply, event))
    })
    .await
}
