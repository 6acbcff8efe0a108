//! A verdict on a version (R1–R4, R7–R9, R11): an approval, or a rejection that locks out
//! everyone credited and may leave nobody to revise.

use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::app::actor::Actor;
use crate::app::artifact::ArtifactWrite;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::app::views;
use crate::domain::{self, Code, ReviewResult, Verdict};
use crate::domain::{ArtifactKey, TeamId};
use crate::error::{Error, Result, ResultExt};
use crate::metrics::Counted;
use crate::resources::events::{EventData, ReviewApproved, ReviewRejected};
use crate::resources::{Lockout, ReviewInput, ReviewOutcome, Version};
use crate::store::Db;
use crate::store::artifacts::{self as store, ArtifactUpdate, LockoutRow, NewReview};
use crate::store::events::NewEvent;

#[tracing::instrument(skip_all, fields(%team, %key, number), err(level = "debug"))]
pub async fn review(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    key: &ArtifactKey,
    number: i32,
    input: ReviewInput,
) -> Result<Outcome<ReviewOutcome>> {
    actor.require_actor(team, &input.reviewer)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let mut a = ArtifactWrite::open(tx, team, key, pre.if_match.as_deref()).await?;
        let request = domain::ReviewRequest {
            reviewer: &input.reviewer,
            version: number,
            verdict: input.verdict,
            git_ref: input.git_ref.as_deref(),
            reason: input.reason.as_deref(),
            remedy: input.remedy.as_ref(),
            evidence: input.evidence.as_ref(),
        };
        let outcome = domain::decide_review(&a.rules, &a.roster, a.policy, request)?;
        let (id, cycle, verdict) = (a.id(), a.rules.cycle, input.verdict);
        let mut counted = vec![Counted::Review(verdict)];
        let new = NewReview {
            number,
            reviewer: &input.reviewer,
            verdict,
            kind: outcome.kind,
            git_ref: input.git_ref.as_deref(),
            grounds: input.grounds,
            reason: input.reason.as_deref(),
            remedy: input.remedy.as_ref(),
            evidence: input.evidence.as_ref(),
        };
        let row = store::insert_review(tx, team, id, new)
            .await
            .on_constraint("reviews_one_per_reviewer", || {
                Error::refused(Code::DuplicateReview, "this reviewer already gave a verdict on this version")
            })?;
        let state = outcome.next_state();
        let approved = |approvals: Option<u32>, required: Option<u32>| {
            EventData::ReviewApproved(ReviewApproved {
                version: number,
                reviewer: input.reviewer.to_string(),
                verdict,
                kind: outcome.kind,
                state,
                approvals: approvals.map(i64::from),
                required_approvals: required.map(i64::from),
            })
        };
        let data = match &outcome.result {
            ReviewResult::ApprovalRecorded { approvals, required } => {
                a.loaded.artifact = store::touch(tx, team, id).await?;
                approved(Some(*approvals), Some(*required))
            }
            // R8: the cycle ends and every lockout clears.
            ReviewResult::Approved => {
                store::clear_lockouts(tx, team, id).await?;
                a.loaded.lockouts.clear();
                let update = ArtifactUpdate { state, cycle, current_version: number, pending_remedy: None };
                a.loaded.artifact = store::update(tx, team, id, update).await?;
                approved(None, None)
            }
            // R3: everyone credited is locked out; R9: nobody left may deadlock it.
            ReviewResult::Rejected { lockouts, pending, deadlocked } => {
                let locked_out = store::insert_lockouts(tx, team, (id, key), cycle, &row, lockouts).await?;
                counted.push(Counted::LockoutsCreated(locked_out.len() as u64));
                a.loaded.lockouts.extend(locked_out);
                a.loaded.lockouts.sort_by(|x, y| x.agent_id.cmp(&y.agent_id));
                let update =
                    ArtifactUpdate { state, cycle, current_version: number, pending_remedy: Some(pending) };
                a.loaded.artifact = store::update(tx, team, id, update).await?;
                if *deadlocked {
                    let details = escalation_details(tx, team, key, cycle, &a.loaded.lockouts).await?;
                    a.loaded.escalation = Some(store::open_escalation(tx, team, (id, key), details).await?);
                    counted.push(Counted::DeadlockOpened);
                }
                EventData::ReviewRejected(ReviewRejected {
                    version: number,
                    reviewer: input.reviewer.to_string(),
                    verdict,
                    kind: outcome.kind,
                    state,
                    lockouts: lockouts.clone(),
                    reason: pending.reason.clone(),
                    remedy: input.remedy.clone(),
                    // Present only when true.
                    deadlocked: deadlocked.then_some(true),
                })
            }
        };
        counted.into_iter().for_each(|c| w.count(c));
        a.loaded.cycle_reviews.push(row.clone());
        let event = NewEvent { artifact: Some(key), actor: Some(input.reviewer.to_string()), data };
        let reply = ReviewOutcome { review: views::review(row), artifact: a.status() };
        Ok(Done::new(Change::Created, reply, event))
    })
    .await
}

/// R9: what the user needs to decide: every version of the cycle with its authors, the
/// rejections, and the lockouts.
async fn escalation_details(
    tx: &mut PgConnection,
    team: &str,
    key: &str,
    cycle: i32,
    lockouts: &[LockoutRow],
) -> Result<Value> {
    let versions = store::versions(tx, team, key, 0, i64::MAX).await?.unwrap_or_default();
    let versions: Vec<Version> =
        versions.into_iter().filter(|v| v.version.cycle == cycle).map(views::version_record).collect();
    let rejections: Vec<Value> = versions
        .iter()
        .flat_map(|v| v.reviews.iter().filter(|r| r.verdict == Verdict::Reject))
        .map(|r| json!({ "version": r.version, "reviewer": r.reviewer, "reason": r.reason, "remedy": r.remedy }))
        .collect();
    let lockouts: Vec<Lockout> = lockouts.iter().cloned().map(views::lockout).collect();
    let authors: Vec<&str> = versions.iter().map(|v| v.author.as_str()).collect();
    Ok(json!({ "versions": versions, "authors": authors, "rejections": rejections, "lockouts": lockouts }))
}
