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

/// Locks the team's row for an update of its settings; `no key update` lets concurrent
/// inserts that reference the team (their foreign-key checks) go on.
pub async fn find_for_update(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<TeamRow>> {
    sqlx::query_as(concat!("select ", columns!(), " from teams where id = $1 for no key update"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Locks the team's row `for share` until the transaction ends, before a write reads the roster
/// and the policy it decides on: a roster or policy change waits for the write, and the write for
/// a change already under way. `false` when the team does not exist.
pub async fn share(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    let locked: Option<i32> = sqlx::query_scalar("select 1 from teams where id = $1 for share")
        .bind(id)
        .fetch_optional(conn)
        .await?;
    Ok(locked.is_some())
}

/// Marks a change of the team's roster: increases the team's revision, which the status ETags
/// of its artifacts carry, and holds its row until the transaction ends, so no write decides on
/// the roster meanwhile ([`share`]). `false` when the team does not exist.
pub async fn roster_changes(conn: &mut PgConnection, id: &str) -> sqlx::Result<bool> {
    let updated =
        sqlx::query("update teams set revision = revision + 1 where id = $1").bind(id).execute(conn).await?;
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
