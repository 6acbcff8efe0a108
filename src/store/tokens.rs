use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Scope;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TokenRow {
    pub id: Uuid,
    pub team_id: Option<String>,
    pub name: String,
    pub scope: Scope,
    pub agent_id: Option<String>,
    pub created_at: DateTime<Utc>,
}

macro_rules! columns {
    () => {
        "id, team_id, name, scope, agent_id, created_at"
    };
}

/// The columns of a `server_tokens` row as a [`TokenRow`]: no team, always `admin`, no agent.
macro_rules! server_columns {
    () => {
        "id, null::text as team_id, name, 'admin' as scope, null::text as agent_id, created_at"
    };
}

/// The live token with this secret hash: a lookup by hash, so no secret is compared. A bearer
/// secret names no team, so this looks in every team's tokens (an index probe each; the token
/// cache makes it about one a second per token) and in the server-wide ones.
pub async fn find_by_hash(conn: &mut PgConnection, hash: &[u8]) -> sqlx::Result<Option<TokenRow>> {
    sqlx::query_as(concat!(
        "-- across teams: a bearer secret names no team\n",
        "select ",
        columns!(),
        " from tokens where secret_hash = $1 and revoked_at is null
         union all select ",
        server_columns!(),
        " from server_tokens where secret_hash = $1 and revoked_at is null"
    ))
    .bind(hash)
    .fetch_optional(conn)
    .await
}

/// Inserts a token of the team, or a server-wide one (always `admin`) when `team` is `None`.
pub async fn insert(
    conn: &mut PgConnection,
    team: Option<&str>,
    name: &str,
    scope: Scope,
    agent: Option<&str>,
    hash: &[u8],
) -> sqlx::Result<TokenRow> {
    let Some(team) = team else {
        return sqlx::query_as(concat!(
            "insert into server_tokens (id, name, secret_hash) values ($1, $2, $3) returning ",
            server_columns!()
        ))
        .bind(Uuid::new_v4())
        .bind(name)
        .bind(hash)
        .fetch_one(conn)
        .await;
    };
    sqlx::query_as(concat!(
        "insert into tokens (id, team_id, name, scope, agent_id, secret_hash) values ($1, $2, $3, $4, $5, $6)
         returning ",
        columns!()
    ))
    .bind(Uuid::new_v4())
    .bind(team)
    .bind(name)
    .bind(scope)
    .bind(agent)
    .bind(hash)
    .fetch_one(conn)
    .await
}

/// The team's live tokens, oldest first.
pub async fn list(conn: &mut PgConnection, team: &str) -> sqlx::Result<Vec<TokenRow>> {
    sqlx::query_as(concat!(
        "select ",
        columns!(),
        " from tokens where team_id = $1 and revoked_at is null order by created_at, id"
    ))
    .bind(team)
    .fetch_all(conn)
    .await
}

/// The live server-wide tokens (those of no team), oldest first.
pub async fn list_server_wide(conn: &mut PgConnection) -> sqlx::Result<Vec<TokenRow>> {
    sqlx::query_as(concat!(
        "select ",
        server_columns!(),
        " from server_tokens where revoked_at is null order by created_at, id"
    ))
    .fetch_all(conn)
    .await
}

/// The live token with this id, of any team or of none: for the command line, which names the
/// token alone.
pub async fn find(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<TokenRow>> {
    sqlx::query_as(concat!(
        "-- across teams: an admin's command names the token alone\n",
        "select ",
        columns!(),
        " from tokens where id = $1 and revoked_at is null
         union all select ",
        server_columns!(),
        " from server_tokens where id = $1 and revoked_at is null"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Revokes a live server-wide token; `None` when there is none with this id.
pub async fn revoke_server_wide(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<TokenRow>> {
    sqlx::query_as(concat!(
        "update server_tokens set revoked_at = now() where id = $1 and revoked_at is null returning ",
        server_columns!()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Revokes a live token of the team; `None` when there is none with this id.
pub async fn revoke(conn: &mut PgConnection, team: &str, id: Uuid) -> sqlx::Result<Option<TokenRow>> {
    sqlx::query_as(concat!(
        "update tokens set revoked_at = now() where team_id = $1 and id = $2 and revoked_at is null
         returning ",
        columns!()
    ))
    .bind(team)
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Creates the first server-wide admin token unless any token exists. Serialized by an
/// advisory lock, so replicas starting together create at most one.
pub async fn bootstrap_admin(conn: &mut PgConnection, hash: &[u8]) -> sqlx::Result<bool> {
    sqlx::query("select pg_advisory_xact_lock(hashtext('reviewlock.bootstrap_admin'))")
        .execute(&mut *conn)
        .await?;
    let inserted = sqlx::query(
        "-- across teams: at start, whether any token exists at all
         insert into server_tokens (id, name, secret_hash)
         select $1, 'bootstrap-admin', $2
         where not exists (select 1 from server_tokens) and not exists (select 1 from tokens)",
    )
    .bind(Uuid::new_v4())
    .bind(hash)
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}
