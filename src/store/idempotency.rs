//! Stored responses of requests that carried an `Idempotency-Key`.

use sqlx::PgConnection;
use uuid::Uuid;

/// What the first request with a key stored.
#[derive(Debug, sqlx::FromRow)]
pub struct Stored {
    pub fingerprint: Vec<u8>,
    pub status: i32,
    pub body: Vec<u8>,
    /// The team's event seq the request committed; none for a server-wide write.
    pub seq: Option<i64>,
}

/// How long a key replays its response.
const TTL: &str = "24 hours";

/// What claiming a key found.
#[derive(Debug)]
pub enum Claim {
    /// The key is this request's: run it and store its response.
    Claimed,
    /// A request with this key is running now, in another transaction.
    InFlight,
    /// The response the first request with the key stored.
    Stored(Stored),
}

/// The team a key belongs to when its request writes to no team (a server-wide token's
/// creation or revocation): not a team id, which never is empty.
pub const NO_TEAM: &str = "";

/// Claims the key of the token `owner` for this request to `team`, in its transaction; or says
/// that a request with the key is running, or returns what the first request with the key stored.
///
/// The claim takes a transaction-scoped advisory lock on the key first, without waiting: a
/// concurrent repeat of a request still running finds it taken and answers at once, instead of
/// waiting on the key's row (and holding a pooled connection) until the first one commits.
pub async fn claim(
    conn: &mut PgConnection,
    team: &str,
    owner: Uuid,
    key: &str,
    fingerprint: &[u8],
) -> sqlx::Result<Claim> {
    let (free, claimed): (bool, bool) = sqlx::query_as(
        "with lock as (select pg_try_advisory_xact_lock(hashtextextended($1 || ' ' || $2::text || ' ' || $3, 0)) as free),
              claim as (insert into idempotency_keys (team_id, token_id, key, fingerprint, status, body, expires_at)
                        select $1, $2, $3, $4, 0, '', now() + $5::interval from lock where free
                        on conflict (team_id, token_id, key) do update
                            set fingerprint = excluded.fingerprint, status = 0, body = '', seq = null, created_at = now(),
                                expires_at = excluded.expires_at
                            where idempotency_keys.expires_at < now()
                        returning 1)
         select (select free from lock), exists (select 1 from claim)",
    )
    .bind(team)
    .bind(owner)
    .bind(key)
    .bind(fingerprint)
    .bind(TTL)
    .fetch_one(&mut *conn)
    .await?;
    if !free {
        return Ok(Claim::InFlight);
    }
    if claimed {
        return Ok(Claim::Claimed);
    }
    let stored = sqlx::query_as(
        "select fingerprint, status, body, seq from idempotency_keys where team_id = $1 and token_id = $2 and key = $3",
    )
    .bind(team)
    .bind(owner)
    .bind(key)
    .fetch_one(conn)
    .await?;
    Ok(Claim::Stored(stored))
}

/// Stores the response of the request that claimed the key, with the event seq it committed, in
/// the same transaction as its effect.
pub async fn complete(
    conn: &mut PgConnection,
    team: &str,
    token: Uuid,
    key: &str,
    status: u16,
    body: &[u8],
    seq: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update idempotency_keys set status = $4, body = $5, seq = $6 where team_id = $1 and token_id = $2 and key = $3",
    )
        .bind(team)
        .bind(token)
        .bind(key)
        .bind(i32::from(status))
        .bind(body)
        .bind(seq)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes expired keys; returns how many.
pub async fn purge_expired(conn: &mut PgConnection) -> sqlx::Result<u64> {
    Ok(sqlx::query("-- across teams: housekeeping, every team's expired keys at once\ndelete from idempotency_keys where expires_at < now()")
        .execute(conn)
        .await?
        .rows_affected())
}
