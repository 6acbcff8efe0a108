//! Stored responses of requests that carried an `Idempotency-Key`.

use sqlx::PgConnection;
use uuid::Uuid;

/// What the first request with a key stored.
#[derive(Debug, sqlx::FromRow)]
pub struct Stored {
    pub fingerprint: Vec<u8>,
    pub status: i32,
    pub body: Vec<u8>,
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

/// Claims the key for this request, in its transaction; or says that a request with the key is
/// running, or returns what the first request with the key stored.
///
/// The claim takes a transaction-scoped advisory lock on the key first, without waiting: a
/// concurrent repeat of a request still running finds it taken and answers at once, instead of
/// waiting on the key's row (and holding a pooled connection) until the first one commits.
pub async fn claim(
    conn: &mut PgConnection,
    owner: Uuid,
    key: &str,
    fingerprint: &[u8],
) -> sqlx::Result<Claim> {
    let (free, claimed): (bool, bool) = sqlx::query_as(
        "with lock as (select pg_try_advisory_xact_lock(hashtextextended($1::text || ' ' || $2, 0)) as free),
              claim as (insert into idempotency_keys (token_id, key, fingerprint, status, body, expires_at)
                        select $1, $2, $3, 0, '', now() + $4::interval from lock where free
                        on conflict (token_id, key) do update
                            set fingerprint = excluded.fingerprint, status = 0, body = '', created_at = now(),
                                expires_at = excluded.expires_at
                            where idempotency_keys.expires_at < now()
                        returning 1)
         select (select free from lock), exists (select 1 from claim)",
    )
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
        "select fingerprint, status, body from idempotency_keys where token_id = $1 and key = $2",
    )
    .bind(owner)
    .bind(key)
    .fetch_one(conn)
    .await?;
    Ok(Claim::Stored(stored))
}

/// Stores the response of the request that claimed the key, in the same transaction as its effect.
pub async fn complete(
    conn: &mut PgConnection,
    token: Uuid,
    key: &str,
    status: u16,
    body: &[u8],
) -> sqlx::Result<()> {
    sqlx::query("update idempotency_keys set status = $3, body = $4 where token_id = $1 and key = $2")
        .bind(token)
        .bind(key)
        .bind(i32::from(status))
        .bind(body)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes expired keys; returns how many.
pub async fn purge_expired(conn: &mut PgConnection) -> sqlx::Result<u64> {
    Ok(sqlx::query("delete from idempotency_keys where expires_at < now()")
        .execute(conn)
        .await?
        .rows_affected())
}
