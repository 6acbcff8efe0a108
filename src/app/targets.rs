//! What webhooks and forges share: their delivery state and log as the API shows them, a URL
//! checked against the outbound policy, and a retry asked for by hand.

use uuid::Uuid;

use crate::app::actor::{Actor, team_not_found};
use crate::app::deliver::{self, Outbox};
use crate::domain::{Scope, TeamId};
use crate::error::{Error, Result};
use crate::resources::{DeliveryAttempt, DeliveryList, DeliveryState, RetryOutcome};
use crate::store::targets::{self, AttemptRow, TargetRow};
use crate::store::{Db, teams};

/// The most attempts a page of the delivery log holds.
pub const MAX_PAGE: i64 = 100;

pub fn state(row: &TargetRow) -> DeliveryState {
    DeliveryState {
        cursor: row.cursor,
        failed_attempts: row.attempts,
        failing_since: row.failing_since,
        next_attempt_at: row.next_attempt_at,
    }
}

pub fn attempt(row: AttemptRow) -> DeliveryAttempt {
    DeliveryAttempt {
        id: row.id,
        seq: row.seq,
        event_type: row.event_type,
        webhook_id: row.message_id,
        attempt: row.attempt,
        manual: row.manual,
        at: row.at,
        succeeded: row.succeeded,
        response_status: row.response_status,
        latency_ms: row.latency_ms,
        response_body: row.response_body,
        error: row.error,
    }
}

/// A URL deliveries may go to, or a 422 on `field` saying why not.
pub async fn check_url(outbox: &Outbox, field: &str, url: &str) -> Result<()> {
    if url.chars().count() > 2048 {
        return Err(Error::invalid(field, "must be at most 2048 characters"));
    }
    outbox.client.check_url(url).await.map_err(|e| Error::invalid(field, e))
}

/// The target the lookup finds in the team (which must exist), or 404 saying `what`.
pub async fn find(
    db: &Db,
    actor: &Actor,
    team: &TeamId,
    what: &str,
    lookup: impl AsyncFnOnce(&mut sqlx::PgConnection) -> sqlx::Result<Option<TargetRow>>,
) -> Result<TargetRow> {
    actor.require(team, Scope::Admin)?;
    db.read(async |conn| {
        let found = lookup(conn).await?;
        match found {
            Some(row) => Ok(row),
            None => {
                teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
                Err(Error::NotFound(format!("{what} does not exist in team '{team}'")))
            }
        }
    })
    .await
}

/// A page of a target's delivery log, newest first, before the attempt `before`.
pub async fn deliveries(
    db: &Db,
    target: &TargetRow,
    before: Option<Uuid>,
    limit: i64,
) -> Result<DeliveryList> {
    let rows = db
        .read(async |conn| {
            targets::attempts(conn, &target.team_id, target.id, before, limit.clamp(1, MAX_PAGE)).await
        })
        .await?;
    let full = rows.len() as i64 == limit.clamp(1, MAX_PAGE);
    let next_cursor = rows.last().filter(|_| full).map(|last| last.id.to_string());
    Ok(DeliveryList { items: rows.into_iter().map(attempt).collect(), next_cursor })
}

/// Retries the event of a logged attempt: one the target already delivered is sent again now
/// (the same `webhook-id`); one still ahead of its cursor makes the target's next attempt due
/// now, in order.
pub async fn retry(outbox: &Outbox, db: &Db, target: &TargetRow, delivery: Uuid) -> Result<RetryOutcome> {
    let logged = db
        .read(async |conn| targets::attempt(conn, &target.team_id, target.id, delivery).await)
        .await?
        .ok_or_else(|| Error::NotFound(format!("delivery '{delivery}' does not exist for this target")))?;
    match logged.seq {
        Some(seq) if seq > target.cursor => {
            db.read(async |conn| targets::due_now(conn, &target.team_id, target.id).await).await?;
            outbox.wake.notify_one();
            Ok(RetryOutcome { attempt: None, scheduled: true })
        }
        seq => {
            let sent = deliver::resend(outbox, db, target, seq).await?;
            Ok(RetryOutcome { attempt: Some(attempt(sent)), scheduled: false })
        }
    }
}
