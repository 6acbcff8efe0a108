//! Where a team's events are delivered (`delivery_targets`: webhooks and forges) and every
//! attempt (`delivery_attempts`). The event log is the outbox: a target's `cursor` is the last
//! seq it is done with, and a delivery worker holds the target's advisory lock
//! ([`try_lock`]) while it moves the cursor on, so one replica at a time sends to a target, in
//! seq order; a worker that dies frees the lock with its connection.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{DisabledReason, ForgeKind, TargetKind};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TargetRow {
    pub team_id: String,
    pub id: Uuid,
    pub kind: TargetKind,
    pub url: String,
    pub name: Option<String>,
    pub description: Option<String>,
    pub events: Vec<String>,
    pub forge: Option<ForgeKind>,
    pub repository: Option<String>,
    pub context: Option<String>,
    pub secret: Vec<u8>,
    pub previous_secret: Option<Vec<u8>>,
    pub previous_expires_at: Option<DateTime<Utc>>,
    pub enabled: bool,
    pub disabled_reason: Option<DisabledReason>,
    pub cursor: i64,
    pub attempts: i32,
    pub failing_since: Option<DateTime<Utc>>,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TargetRow {
    /// What a sealed secret of this row is bound to.
    pub fn seal_binding(&self) -> String {
        binding(&self.team_id, self.id)
    }
}

/// What a sealed secret of the target `id` of `team` is bound to.
pub fn binding(team: &str, id: Uuid) -> String {
    format!("{team}/{id}")
}

macro_rules! columns {
    () => {
        "team_id, id, kind, url, name, description, events, forge, repository, context, secret, previous_secret,
         previous_expires_at, enabled, disabled_reason, cursor, attempts, failing_since, next_attempt_at,
         created_at, updated_at"
    };
}

/// A new target; it starts after the seq `cursor`.
pub struct NewTarget<'a> {
    pub id: Uuid,
    pub kind: TargetKind,
    pub url: &'a str,
    pub name: Option<&'a str>,
    pub description: Option<&'a str>,
    pub events: &'a [String],
    pub forge: Option<ForgeKind>,
    pub repository: Option<&'a str>,
    pub context: Option<&'a str>,
    pub secret: &'a [u8],
    /// `None`: after the event that says it was created.
    pub cursor: Option<i64>,
    pub enabled: bool,
}

/// Inserts a target. Without a cursor it starts after the event its own creation appends
/// next: the team's counter is locked to commit, so no other event can come between.
pub async fn insert(conn: &mut PgConnection, team: &str, t: NewTarget<'_>) -> sqlx::Result<TargetRow> {
    sqlx::query_as(concat!(
        "with s as (select last_event_seq from team_seqs where team_id = $1 for update)
         insert into delivery_targets (team_id, id, kind, url, name, description, events, forge, repository,
                                       context, secret, cursor, enabled)
         select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, coalesce($12, s.last_event_seq + 1), $13
         from s returning ",
        columns!()
    ))
    .bind(team)
    .bind(t.id)
    .bind(t.kind)
    .bind(t.url)
    .bind(t.name)
    .bind(t.description)
    .bind(t.events)
    .bind(t.forge)
    .bind(t.repository)
    .bind(t.context)
    .bind(t.secret)
    .bind(t.cursor)
    .bind(t.enabled)
    .fetch_one(conn)
    .await
}

pub async fn list(conn: &mut PgConnection, team: &str, kind: TargetKind) -> sqlx::Result<Vec<TargetRow>> {
    sqlx::query_as(concat!(
        "select ",
        columns!(),
        " from delivery_targets where team_id = $1 and kind = $2 order by created_at, id"
    ))
    .bind(team)
    .bind(kind)
    .fetch_all(conn)
    .await
}

pub async fn find(conn: &mut PgConnection, team: &str, id: Uuid) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!("select ", columns!(), " from delivery_targets where team_id = $1 and id = $2"))
        .bind(team)
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The forge named `name`.
pub async fn find_forge(conn: &mut PgConnection, team: &str, name: &str) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!(
        "select ",
        columns!(),
        " from delivery_targets where team_id = $1 and kind = 'forge' and name = $2"
    ))
    .bind(team)
    .bind(name)
    .fetch_optional(conn)
    .await
}

/// A target's settings as a change leaves them (every field, as read and changed by the use case).
pub struct Settings<'a> {
    pub url: &'a str,
    pub description: Option<&'a str>,
    pub events: &'a [String],
    pub forge: Option<ForgeKind>,
    pub repository: Option<&'a str>,
    pub context: Option<&'a str>,
    /// A new sealed secret (a forge's new token), or none to keep the one stored.
    pub secret: Option<&'a [u8]>,
    pub enabled: bool,
}

/// Writes a target's settings. Enabling a disabled target clears why and its failures, so it
/// resumes from its cursor at once.
pub async fn update(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    s: Settings<'_>,
) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!(
        "update delivery_targets set url = $3, description = $4, events = $5, forge = $6, repository = $7,
                context = $8, secret = coalesce($9, secret), updated_at = now(),
                disabled_reason = case when $10 then null else disabled_reason end,
                attempts = case when $10 and not enabled then 0 else attempts end,
                failing_since = case when $10 and not enabled then null else failing_since end,
                next_attempt_at = case when $10 and not enabled then null else next_attempt_at end,
                enabled = $10
         where team_id = $1 and id = $2 returning ",
        columns!()
    ))
    .bind(team)
    .bind(id)
    .bind(s.url)
    .bind(s.description)
    .bind(s.events)
    .bind(s.forge)
    .bind(s.repository)
    .bind(s.context)
    .bind(s.secret)
    .bind(s.enabled)
    .fetch_optional(conn)
    .await
}

/// A new signing secret; the previous one goes on signing until `previous_expires_at`.
pub async fn rotate(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    secret: &[u8],
    previous_expires_at: DateTime<Utc>,
) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!(
        "update delivery_targets set previous_secret = secret, previous_expires_at = $4, secret = $3, updated_at = now()
         where team_id = $1 and id = $2 and kind = 'webhook' returning ",
        columns!()
    ))
    .bind(team)
    .bind(id)
    .bind(secret)
    .bind(previous_expires_at)
    .fetch_optional(conn)
    .await
}

/// Deletes the target `id` if it is of this kind.
pub async fn delete(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    kind: TargetKind,
) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!(
        "delete from delivery_targets where team_id = $1 and id = $2 and kind = $3 returning ",
        columns!()
    ))
    .bind(team)
    .bind(id)
    .bind(kind)
    .fetch_optional(conn)
    .await
}

// ---------------------------------------------------------------------------------------------
// The delivery workers'.

/// Targets with events to send now, longest waiting first: enabled, behind their team's log,
/// and not waiting for a retry.
pub async fn due(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<(String, Uuid)>> {
    sqlx::query_as(
        "-- across teams: every replica's delivery workers share every team's targets
         select t.team_id, t.id from delivery_targets t join team_seqs s on s.team_id = t.team_id
         where t.enabled and s.last_event_seq > t.cursor and (t.next_attempt_at is null or t.next_attempt_at <= now())
         order by t.next_attempt_at nulls first, t.updated_at limit $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// When the next retry falls due, if any target waits for one.
pub async fn next_retry(conn: &mut PgConnection) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar(
        "-- across teams: when any team's next retry is due
         select min(next_attempt_at) from delivery_targets where enabled and next_attempt_at > now()",
    )
    .fetch_one(conn)
    .await
}

/// Takes the target's advisory lock on this connection, if no other holds it. It is held until
/// [`unlock`], or until the connection ends.
pub async fn try_lock(conn: &mut PgConnection, team: &str, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select pg_try_advisory_lock(hashtextextended($1 || '/' || $2::text, 7411))")
        .bind(team)
        .bind(id)
        .fetch_one(conn)
        .await
}

pub async fn unlock(conn: &mut PgConnection, team: &str, id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select pg_advisory_unlock(hashtextextended($1 || '/' || $2::text, 7411))")
        .bind(team)
        .bind(id)
        .fetch_one(conn)
        .await
}

/// Moves the cursor to `seq` (delivered, or not wanted), clearing the failures.
pub async fn advance(conn: &mut PgConnection, team: &str, id: Uuid, seq: i64) -> sqlx::Result<()> {
    sqlx::query(
        "update delivery_targets set cursor = $3, attempts = 0, failing_since = null, next_attempt_at = null
         where team_id = $1 and id = $2 and cursor < $3",
    )
    .bind(team)
    .bind(id)
    .bind(seq)
    .execute(conn)
    .await
    .map(drop)
}

/// Records a failed attempt at the event after the cursor: the next one is due at `next`.
/// Returns since when the target has been failing.
pub async fn failed(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    next: DateTime<Utc>,
) -> sqlx::Result<DateTime<Utc>> {
    sqlx::query_scalar(
        "update delivery_targets set attempts = attempts + 1, failing_since = coalesce(failing_since, now()),
                next_attempt_at = $3
         where team_id = $1 and id = $2 returning failing_since",
    )
    .bind(team)
    .bind(id)
    .bind(next)
    .fetch_one(conn)
    .await
}

/// Stops deliveries to the target, saying why; its cursor stays where it is.
pub async fn disable(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    reason: DisabledReason,
) -> sqlx::Result<Option<TargetRow>> {
    sqlx::query_as(concat!(
        "update delivery_targets set enabled = false, disabled_reason = $3, next_attempt_at = null, updated_at = now()
         where team_id = $1 and id = $2 and enabled returning ",
        columns!()
    ))
    .bind(team)
    .bind(id)
    .bind(reason)
    .fetch_optional(conn)
    .await
}

/// Makes the target's next attempt due now (a retry asked for by hand).
pub async fn due_now(conn: &mut PgConnection, team: &str, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("update delivery_targets set next_attempt_at = null where team_id = $1 and id = $2")
        .bind(team)
        .bind(id)
        .execute(conn)
        .await
        .map(drop)
}

/// Each enabled target behind its team's log, with the age of the oldest event it has not
/// delivered, for `/metrics`.
pub async fn backlog(conn: &mut PgConnection) -> sqlx::Result<Vec<(String, Uuid, TargetKind, f64)>> {
    sqlx::query_as(
        "-- across teams: the delivery backlog of every team, for /metrics
         select t.team_id, t.id, t.kind, extract(epoch from now() - e.at)::float8
         from delivery_targets t join events e on e.team_id = t.team_id and e.seq = t.cursor + 1
         where t.enabled",
    )
    .fetch_all(conn)
    .await
}

/// Every target's sealed secrets, to seal again with a new key.
pub async fn sealed(conn: &mut PgConnection) -> sqlx::Result<Vec<(String, Uuid, Vec<u8>, Option<Vec<u8>>)>> {
    sqlx::query_as(
        "-- across teams: secrets sealed again after a key rotation
         select team_id, id, secret, previous_secret from delivery_targets",
    )
    .fetch_all(conn)
    .await
}

pub async fn reseal(
    conn: &mut PgConnection,
    team: &str,
    id: Uuid,
    secret: &[u8],
    previous: Option<&[u8]>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update delivery_targets set secret = $3, previous_secret = $4 where team_id = $1 and id = $2",
    )
    .bind(team)
    .bind(id)
    .bind(secret)
    .bind(previous)
    .execute(conn)
    .await
    .map(drop)
}

// ---------------------------------------------------------------------------------------------
// The delivery log.

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttemptRow {
    pub team_id: String,
    pub id: Uuid,
    pub target_id: Uuid,
    pub seq: Option<i64>,
    pub event_type: String,
    pub message_id: String,
    pub attempt: i32,
    pub manual: bool,
    pub at: DateTime<Utc>,
    pub succeeded: bool,
    pub response_status: Option<i32>,
    pub latency_ms: i32,
    pub response_body: Option<String>,
    pub error: Option<String>,
}

pub async fn record(conn: &mut PgConnection, a: &AttemptRow) -> sqlx::Result<()> {
    sqlx::query(
        "insert into delivery_attempts (team_id, id, target_id, seq, event_type, message_id, attempt, manual, at,
                                        succeeded, response_status, latency_ms, response_body, error)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(&a.team_id)
    .bind(a.id)
    .bind(a.target_id)
    .bind(a.seq)
    .bind(&a.event_type)
    .bind(&a.message_id)
    .bind(a.attempt)
    .bind(a.manual)
    .bind(a.at)
    .bind(a.succeeded)
    .bind(a.response_status)
    .bind(a.latency_ms)
    .bind(&a.response_body)
    .bind(&a.error)
    .execute(conn)
    .await
    .map(drop)
}

/// The target's attempts, newest first, before the attempt `before` if given.
pub async fn attempts(
    conn: &mut PgConnection,
    team: &str,
    target: Uuid,
    before: Option<Uuid>,
    limit: i64,
) -> sqlx::Result<Vec<AttemptRow>> {
    sqlx::query_as(
        "select * from delivery_attempts a
         where a.team_id = $1 and a.target_id = $2
           and ($3::uuid is null or (a.at, a.id) < (select b.at, b.id from delivery_attempts b
                                                    where b.team_id = $1 and b.id = $3))
         order by a.at desc, a.id desc limit $4",
    )
    .bind(team)
    .bind(target)
    .bind(before)
    .bind(limit)
    .fetch_all(conn)
    .await
}

pub async fn attempt(
    conn: &mut PgConnection,
    team: &str,
    target: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<AttemptRow>> {
    sqlx::query_as("select * from delivery_attempts where team_id = $1 and target_id = $2 and id = $3")
        .bind(team)
        .bind(target)
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Deletes attempts older than 30 days.
pub async fn purge_attempts(conn: &mut PgConnection) -> sqlx::Result<u64> {
    sqlx::query("-- across teams: the delivery log keeps 30 days\ndelete from delivery_attempts where at < now() - interval '30 days'")
        .execute(conn)
        .await
        .map(|r| r.rows_affected())
}
