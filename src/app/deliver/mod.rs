//! Delivery from the event log: webhooks and commit statuses (docs/webhooks.md).
//!
//! The log is the outbox: an event is written in its change's transaction, and each target
//! (`store::targets`) keeps a cursor, the last seq it is done with. Every replica runs
//! [`run`]: woken by the process's `LISTEN` (and by [`Outbox::wake`]), or every [`POLL`] at
//! the latest, it finds the targets behind their team's log and, for each, up to the
//! configured concurrency, takes the target's advisory lock on a connection of its own, sends
//! the events after the cursor one at a time in seq order, and moves the cursor past each one
//! delivered (or not wanted). A failure stops the target until its next retry
//! ([`schedule`]). Delivery is at least once: an event is sent again after a failure, or when a
//! replica dies between the receiver's answer and the cursor's move (the lock goes with its
//! connection, and another replica takes over at once); it is never sent to one target by two
//! replicas at the same time, nor after a later event.

pub mod forge;
pub mod schedule;
pub mod webhook;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::Utc;
use tokio::sync::{Notify, Semaphore};
use uuid::Uuid;

use crate::app::events::event;
use crate::domain::{Code, DisabledReason, TargetKind};
use crate::error::{Error, Result};
use crate::metrics::{self, Delivery};
use crate::outbound::{Client, Reply};
use crate::resources::events::{EventData, ForgeChanged, WebhookChanged};
use crate::seal::Keys;
use crate::store::artifacts;
use crate::store::events::{self as log, EventRow, NewEvent};
use crate::store::targets::{self, AttemptRow, TargetRow};
use crate::store::{Db, listener::Feed};

/// How often every replica looks for work without a wake-up.
pub const POLL: Duration = Duration::from_secs(5);

/// The least time between two looks for work: under a stream of events, a replica looks at
/// most this often, not once per event.
const SETTLE: Duration = Duration::from_millis(100);

/// How long one turn at a target may go on sending before the target goes back to the pool
/// of work (so one busy target does not hold a worker forever).
const TURN: Duration = Duration::from_secs(20);

/// Events read at once for a target.
const PAGE: i64 = 100;

/// What deliveries need: the client, the keys secrets are sealed with, the board's URL for
/// commit statuses' links, and how to wake the workers. Cloning shares it.
#[derive(Clone)]
pub struct Outbox {
    pub client: Client,
    /// `REVIEWLOCK_SECRET_KEY` and the previous keys; none: no webhook or forge can be set up.
    pub keys: Option<Arc<Keys>>,
    /// `REVIEWLOCK_PUBLIC_URL`, without a trailing slash.
    pub public_url: Option<Arc<str>>,
    /// Wakes this replica's workers (a target changed, a retry was asked for).
    pub wake: Arc<Notify>,
}

impl Outbox {
    pub fn new(client: Client, keys: Option<Keys>, public_url: Option<&str>) -> Outbox {
        Outbox {
            client,
            keys: keys.map(Arc::new),
            public_url: public_url.map(|u| u.trim_end_matches('/').into()),
            wake: Arc::default(),
        }
    }

    /// The keys, or why no secret can be stored.
    pub fn keys(&self) -> Result<&Keys> {
        self.keys.as_deref().ok_or_else(|| {
            Error::refused(
                Code::Unavailable,
                "webhooks and forges need REVIEWLOCK_SECRET_KEY (32 random bytes in base64) to store their secrets sealed; set it and restart",
            )
        })
    }

    /// The board's page of an artifact, the link of its commit statuses.
    pub fn artifact_url(&self, team: &str, key: &str) -> Option<String> {
        self.public_url.as_ref().map(|base| format!("{base}/ui/#/teams/{team}/artifacts/{key}"))
    }
}

/// Delivers every team's events to their targets, until the process ends; at most
/// `concurrency` targets at once (each holding one connection while it sends).
pub async fn run(outbox: Outbox, db: Db, feed: Feed, concurrency: usize) {
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    let busy: Arc<Mutex<HashSet<(String, Uuid)>>> = Arc::default();
    let activity = feed.activity();
    loop {
        let looked = tokio::time::Instant::now();
        let next_retry = match look_for_work(&outbox, &db, &permits, &busy).await {
            Ok(next) => next,
            Err(e) => {
                tracing::warn!(error = %e, "looking for deliveries to send failed; will retry");
                None
            }
        };
        let wait = next_retry
            .and_then(|at| (at - Utc::now()).to_std().ok())
            .map_or(POLL, |until| until.min(POLL))
            .max(Duration::from_millis(10));
        tokio::select! {
            () = activity.notified() => {}
            () = outbox.wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
        }
        tokio::time::sleep_until(looked + SETTLE).await;
    }
}

/// Starts a turn at each target due, while permits last; returns when the next retry is due.
async fn look_for_work(
    outbox: &Outbox,
    db: &Db,
    permits: &Arc<Semaphore>,
    busy: &Arc<Mutex<HashSet<(String, Uuid)>>>,
) -> sqlx::Result<Option<chrono::DateTime<Utc>>> {
    let (due, next_retry) = db
        .read(async |conn| {
            let due = targets::due(conn, 64).await?;
            Ok::<_, sqlx::Error>((due, targets::next_retry(conn).await?))
        })
        .await?;
    for target in due {
        if !lock(busy).insert(target.clone()) {
            continue;
        }
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            lock(busy).remove(&target);
            break;
        };
        let (outbox, db, busy) = (outbox.clone(), db.clone(), busy.clone());
        tokio::spawn(async move {
            let (team, id) = &target;
            if let Err(e) = turn(&outbox, &db, team, *id).await {
                tracing::warn!(error = %e, %team, target = %id, "a delivery turn failed; will retry");
            }
            lock(&busy).remove(&target);
            drop(permit);
            // More may have come meanwhile.
            outbox.wake.notify_one();
        });
    }
    Ok(next_retry)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One turn at a target: under its advisory lock, held on a connection of its own, send the
/// events after its cursor until it is caught up, fails, or has had [`TURN`].
async fn turn(outbox: &Outbox, db: &Db, team: &str, id: Uuid) -> Result<()> {
    let mut conn = db.from_pool(async |pool| pool.acquire().await).await?;
    if !targets::try_lock(&mut conn, team, id).await? {
        return Ok(());
    }
    let result = send_due(outbox, &mut conn, team, id).await;
    match targets::unlock(&mut conn, team, id).await {
        Ok(true) => {}
        // A connection that may still hold the lock never goes back to the pool.
        _ => drop(conn.detach()),
    }
    result
}

async fn send_due(outbox: &Outbox, conn: &mut sqlx::PgConnection, team: &str, id: Uuid) -> Result<()> {
    let started = tokio::time::Instant::now();
    // Read again under the lock: another replica may have moved it on.
    while started.elapsed() < TURN {
        let Some(mut target) = targets::find(conn, team, id).await? else { return Ok(()) };
        if !target.enabled || target.next_attempt_at.is_some_and(|at| at > Utc::now()) {
            return Ok(());
        }
        let rows = log::page(conn, team, target.cursor, PAGE).await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut done = target.cursor;
        for row in rows {
            let Some(send) = Sending::of(outbox, conn, &target, &row).await? else {
                done = row.seq;
                continue;
            };
            if done > target.cursor {
                targets::advance(conn, team, id, done).await?;
            }
            if !attempt(outbox, conn, &target, &row, send).await? {
                return Ok(());
            }
            // As `advance` left the row: the next event's attempts count from 0.
            (target.cursor, target.attempts) = (row.seq, 0);
            done = row.seq;
            if started.elapsed() >= TURN {
                break;
            }
        }
        targets::advance(conn, team, id, done).await?;
    }
    Ok(())
}

/// What one event is for one target: the requests to send, in order (none: not wanted).
struct Sending {
    requests: Vec<crate::outbound::Request>,
    message_id: String,
}

impl Sending {
    async fn of(
        outbox: &Outbox,
        conn: &mut sqlx::PgConnection,
        target: &TargetRow,
        row: &EventRow,
    ) -> Result<Option<Sending>> {
        let keys = outbox.keys()?;
        let message_id = webhook::message_id(target.id, row.seq);
        match target.kind {
            TargetKind::Webhook => {
                if !webhook::wants(&target.events, &row.kind) {
                    return Ok(None);
                }
                let body = webhook_body(row)?;
                let secrets = signing_secrets(keys, target)?;
                let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
                let request = webhook::request(&target.url, &secrets, &message_id, Utc::now(), body);
                Ok(Some(Sending { requests: vec![request], message_id }))
            }
            TargetKind::Forge => {
                // An event this version does not know (written by a newer replica) sets no status.
                let (Ok(data), Some(key)) =
                    (EventData::parse(&row.kind, row.data.get()), row.artifact.as_deref())
                else {
                    return Ok(None);
                };
                let numbers = forge::versions_named(&data);
                if numbers.is_empty() {
                    return Ok(None);
                }
                let refs: HashMap<i32, String> =
                    artifacts::version_refs(conn, &target.team_id, key, &numbers)
                        .await?
                        .into_iter()
                        .collect();
                let statuses = forge::on_commits(&data, &refs);
                if statuses.is_empty() {
                    return Ok(None);
                }
                let token = open(keys, target, &target.secret)?;
                let (Some(kind), Some(repository)) = (target.forge, target.repository.as_deref()) else {
                    return Ok(None);
                };
                let forge = forge::Forge {
                    kind,
                    api_url: &target.url,
                    repository,
                    token: &token,
                    context: target.context.as_deref().unwrap_or("reviewlock"),
                };
                let link = outbox.artifact_url(&target.team_id, key);
                let requests = statuses
                    .iter()
                    .map(|(sha, status)| forge::request(&forge, sha, status, link.as_deref()))
                    .collect();
                Ok(Some(Sending { requests, message_id }))
            }
        }
    }
}

/// The body of an event's webhook delivery: its type, when it happened, and the event as
/// `GET …/events` shows it.
fn webhook_body(row: &EventRow) -> Result<Vec<u8>> {
    let payload = webhook::Payload { kind: &row.kind, timestamp: row.at, data: event(row.clone()) };
    serde_json::to_vec(&payload).map_err(|e| Error::Internal(format!("serializing a webhook payload: {e}")))
}

fn open(keys: &Keys, target: &TargetRow, sealed: &[u8]) -> Result<String> {
    let bytes = keys.open(sealed, &target.seal_binding()).map_err(|e| Error::Internal(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| Error::Internal("a sealed secret is not UTF-8".into()))
}

/// The secrets a webhook signs with now: its own, then the previous one until it expires.
pub fn signing_secrets(keys: &Keys, target: &TargetRow) -> Result<Vec<String>> {
    let mut secrets = vec![open(keys, target, &target.secret)?];
    if let (Some(previous), Some(until)) = (&target.previous_secret, target.previous_expires_at)
        && until > Utc::now()
    {
        secrets.push(open(keys, target, previous)?);
    }
    Ok(secrets)
}

/// Sends a delivery's requests in order, until one fails: the last reply, and the time all took.
async fn send(outbox: &Outbox, requests: Vec<crate::outbound::Request>) -> (Reply, Duration) {
    let mut latency = Duration::ZERO;
    let mut last = None;
    for request in requests {
        let reply = outbox.client.post(request).await;
        latency += reply.latency;
        let ok = reply.succeeded();
        last = Some(reply);
        if !ok {
            break;
        }
    }
    (last.expect("a delivery sends at least one request"), latency)
}

/// Records an attempt in the delivery log and counts it.
async fn record(
    conn: &mut sqlx::PgConnection,
    target: &TargetRow,
    (seq, event_type, message_id): (Option<i64>, &str, String),
    (attempt, manual): (i32, bool),
    (reply, latency): &(Reply, Duration),
) -> Result<AttemptRow> {
    let row = AttemptRow {
        team_id: target.team_id.clone(),
        id: Uuid::new_v4(),
        target_id: target.id,
        seq,
        event_type: event_type.to_owned(),
        message_id,
        attempt,
        manual,
        at: Utc::now() - chrono::Duration::from_std(*latency).unwrap_or_default(),
        succeeded: reply.succeeded(),
        response_status: reply.status.map(i32::from),
        latency_ms: latency.as_millis().min(i32::MAX as u128) as i32,
        response_body: reply.body.clone(),
        error: reply.error.clone(),
    };
    targets::record(conn, &row).await?;
    metrics::record_delivery(target.kind, Delivery::of(reply), *latency);
    Ok(row)
}

/// Sends one event to its target, records the attempt, and on a failure schedules the next one
/// (or disables the target). Whether it was delivered.
async fn attempt(
    outbox: &Outbox,
    conn: &mut sqlx::PgConnection,
    target: &TargetRow,
    row: &EventRow,
    sending: Sending,
) -> Result<bool> {
    let sent = send(outbox, sending.requests).await;
    let what = (Some(row.seq), row.kind.as_str(), sending.message_id);
    record(conn, target, what, (target.attempts + 1, false), &sent).await?;
    let (reply, _) = sent;
    if reply.succeeded() {
        targets::advance(conn, &target.team_id, target.id, row.seq).await?;
        return Ok(true);
    }
    if target.kind == TargetKind::Webhook && reply.status == Some(410) {
        disable(conn, target, DisabledReason::Gone).await?;
        return Ok(false);
    }
    let failures = u32::try_from(target.attempts + 1).unwrap_or(u32::MAX);
    let wait = schedule::wait(failures, reply.retry_after, rand::random());
    let next = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
    let since = targets::failed(conn, &target.team_id, target.id, next).await?;
    if (Utc::now() - since).to_std().unwrap_or_default() >= schedule::GIVE_UP {
        disable(conn, target, DisabledReason::Failing).await?;
    }
    Ok(false)
}

/// Sends an event again now, outside the schedule and without moving the cursor (a retry by
/// hand of an event already delivered); `None`: a webhook's test delivery. The attempt made.
pub async fn resend(outbox: &Outbox, db: &Db, target: &TargetRow, seq: Option<i64>) -> Result<AttemptRow> {
    let (sending, event_type) = match seq {
        None => (test_delivery(outbox, target)?, webhook::TEST_TYPE.to_owned()),
        Some(seq) => {
            db.read(async |conn| {
                let row = log::page(conn, &target.team_id, seq - 1, 1)
                    .await?
                    .into_iter()
                    .find(|r| r.seq == seq)
                    .ok_or_else(|| Error::NotFound(format!("event {seq} is no longer in the log")))?;
                let sending = Sending::of(outbox, conn, target, &row).await?.ok_or_else(|| {
                    Error::refused(Code::InvalidState, format!("event {seq} is not one this target delivers"))
                })?;
                Ok::<_, Error>((sending, row.kind))
            })
            .await?
        }
    };
    let message_id = sending.message_id.clone();
    // No connection is held while the target answers.
    let sent = send(outbox, sending.requests).await;
    db.read(async |conn| record(conn, target, (seq, &event_type, message_id), (1, true), &sent).await).await
}

/// A webhook's test delivery: `{"type": "webhook.test", "timestamp", "data": {"webhook", "team"}}`,
/// signed like any other.
fn test_delivery(outbox: &Outbox, target: &TargetRow) -> Result<Sending> {
    if target.kind != TargetKind::Webhook {
        return Err(Error::refused(Code::InvalidState, "only a webhook takes a test delivery"));
    }
    let keys = outbox.keys()?;
    let now = Utc::now();
    let message_id = format!("msg_test_{}", Uuid::new_v4().simple());
    let data = serde_json::json!({ "webhook": target.id, "team": target.team_id });
    let body = serde_json::to_vec(&webhook::Payload { kind: webhook::TEST_TYPE, timestamp: now, data })
        .map_err(|e| Error::Internal(format!("serializing a test payload: {e}")))?;
    let secrets = signing_secrets(keys, target)?;
    let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
    let request = webhook::request(&target.url, &secrets, &message_id, now, body);
    Ok(Sending { requests: vec![request], message_id })
}

/// Stops deliveries to a target, and says so in its team's log.
async fn disable(conn: &mut sqlx::PgConnection, target: &TargetRow, reason: DisabledReason) -> Result<()> {
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    if let Some(row) = targets::disable(&mut tx, &target.team_id, target.id, reason).await? {
        let data = changed(&row, How::Disabled);
        let event = NewEvent { artifact: None, actor: None, data };
        log::append(&mut tx, &target.team_id, (None, "reviewlock"), event).await?;
        tracing::warn!(team = %row.team_id, target = %row.id, reason = reason.as_str(), "deliveries to a target stopped");
    }
    tx.commit().await?;
    Ok(())
}

/// What happened to a target, for its team's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    Created,
    Updated,
    Deleted,
    Disabled,
}

/// The event that says what happened to a target (never with its secret).
pub fn changed(row: &TargetRow, how: How) -> EventData {
    match (row.kind, row.forge, &row.name) {
        (TargetKind::Forge, Some(kind), Some(name)) => {
            let data = ForgeChanged {
                forge: name.clone(),
                kind,
                api_url: row.url.clone(),
                repository: row.repository.clone().unwrap_or_default(),
                context: row.context.clone().unwrap_or_default(),
                enabled: row.enabled,
                disabled_reason: row.disabled_reason,
            };
            match how {
                How::Created => EventData::ForgeCreated(data),
                How::Updated => EventData::ForgeUpdated(data),
                How::Deleted => EventData::ForgeDeleted(data),
                How::Disabled => EventData::ForgeDisabled(data),
            }
        }
        _ => {
            let host = reqwest::Url::parse(&row.url).ok().and_then(|u| u.host_str().map(str::to_owned));
            let data = WebhookChanged {
                webhook: row.id,
                host: host.unwrap_or_default(),
                events: row.events.clone(),
                enabled: row.enabled,
                disabled_reason: row.disabled_reason,
            };
            match how {
                How::Created => EventData::WebhookCreated(data),
                How::Updated => EventData::WebhookUpdated(data),
                How::Deleted => EventData::WebhookDeleted(data),
                How::Disabled => EventData::WebhookDisabled(data),
            }
        }
    }
}

/// Seals every stored secret again with the current key, after a key rotation.
pub async fn reseal(db: &Db, keys: &Keys) -> Result<u64> {
    let mut tx = db.begin().await?;
    let mut count = 0;
    for (team, id, secret, previous) in targets::sealed(&mut tx).await? {
        if keys.is_current(&secret) && previous.as_deref().is_none_or(|p| keys.is_current(p)) {
            continue;
        }
        let bound = targets::binding(&team, id);
        let again = |sealed: &[u8]| -> Result<Vec<u8>> {
            let open =
                keys.open(sealed, &bound).map_err(|e| Error::Internal(format!("target {team}/{id}: {e}")))?;
            Ok(keys.seal(&open, &bound))
        };
        let previous = previous.as_deref().map(again).transpose()?;
        targets::reseal(&mut tx, &team, id, &again(&secret)?, previous.as_deref()).await?;
        count += 1;
    }
    tx.commit().await?;
    Ok(count)
}
