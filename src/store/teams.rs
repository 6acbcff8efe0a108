use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use crate::domain::{Policy, Profile};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TeamRow {
    pub id: String,
    pub display_name: Option<String>,
    pub profile: Profile,
    pub required_approvals: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TeamRow {
    pub fn policy(&self) -> Policy {
        policy(self.profile, self.required_approvals)
    }
}

/// The policy stored as these columns.
pub fn policy(profile: Profile, required_approvals: i32) -> Policy {
    Policy { profile, required_approvals: required_approvals.max(1) as u32 }
}

macro_rules! columns {
    () => {
        "id, display_name, profile, required_approvals, created_at, updated_at"
    };
}

pub async fn find(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<TeamRow>> {
    sqlx::query_as(concat!("select ", columns!(), " from teams where id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The team's gate, taken `shared` by every write that decides on the team's roster or policy
/// and exclusively by a change of them, for the rest of the transaction: a statement that
/// starts with `with gate as (...)`, keeps its rows `and exists (select from gate)`, and names
/// the team's id `$1` takes it before it locks any row.
///
/// The team's row alone cannot order them fairly. Writes lock it `for share`, a change locks it
/// `for no key update`; but Postgres grants a share lock on a row that only share locks hold at
/// once, even while an update waits for that row, so under a steady stream of overlapping writes
/// a roster or policy change waits until, by chance, no write holds the row: seconds, tens of
/// seconds. The lock manager, which holds the advisory locks, queues its waiters in order
/// instead: a waiting change makes the writes that come after it wait, and runs as soon as the
/// writes before it commit. (Two keys, so never the one-key locks of idempotency keys.)
macro_rules! gate {
    (shared) => {
        "with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext($1))) "
    };
    (exclusive) => {
        "with gate as (select pg_advisory_xact_lock(hashtext('reviewlock.team'), hashtext($1))) "
    };
}
pub(crate) use gate;

/// Locks the team's row for an update of its settings, through the team's gate ([`gate!`]);
/// `no key update` lets concurrent inserts that reference the team (their foreign-key checks)
/// go on.
pub async fn find_for_update(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<TeamRow>> {
    sqlx::query_as(concat!(
        gate!(exclusive),
        "select ",
        columns!(),
        " from teams where id = $1 and exists (select from gate) for no key update"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Locks the team's row `for share` until the transaction ends, through the team's gate
/// ([`gate!`]), before a write reads the roster and the policy it decides on: a roster or policy
/// change waits for the write, and the write for a change already under way or waiting. `false`
/// when the team does not exist.
pub async fn share(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    let locked: Option<i32> = sqlx::query_scalar(concat!(
        gate!(shared),
        "select 1 from teams where id = $1 and exists (select from gate) for share"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(locked.is_some())
}

/// Marks a change of the team's roster: increases the team's revision, which the status ETags
/// of its artifacts carry, and holds its row (and its gate, [`gate!`]) until the transaction
/// ends, so no write decides on the roster meanwhile ([`share`]). `false` when the team does
/// not exist.
pub async fn roster_changes(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    let updated = sqlx::query(concat!(
        gate!(exclusive),
        "update teams set revision = revision + 1 where id = $1 and exists (select from gate)"
    ))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(updated.rows_affected() == 1)
}

/// Inserts the team, or returns `None` when it already exists.
pub async fn insert(conn: &mut PgConnection, team: &TeamRow) -> sqlx::Result<Option<TeamRow>> {
    sqlx::query_as(concat!(
        "insert into teams (id, display_name, profile, required_approvals) values ($1, $2, $3, $4)
         on conflict (id) do nothing returning ",
        columns!()
    ))
    .bind(&team.id)
    .bind(&team.display_name)
    .bind(team.profile)
    .bind(team.required_approvals)
    .fetch_optional(conn)
    .await
}

pub async fn update(conn: &mut PgConnection, team: &TeamRow) -> sqlx::Result<TeamRow> {
    sqlx::query_as(concat!(
        "update teams set display_name = $2, profile = $3, required_approvals = $4, updated_at = now(),
             revision = revision + 1
         where id = $1 returning ",
        columns!()
    ))
    .bind(&team.id)
    .bind(&team.display_name)
    .bind(team.profile)
    .bind(team.required_approvals)
    .fetch_one(conn)
    .await
}

/// The team's last event seq: every change of the team increases it.
pub async fn last_event_seq(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("select last_event_seq from team_seqs where team_id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}
