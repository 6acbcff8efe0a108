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

/// Claims the key for this request, in its transaction; or returns what the first request with
/// the key stored. A claim by a transaction still running blocks this one until it ends: then
/// its response is here, or, if it rolled back, this request claims the key itself.
pub async fn claim(
    conn: &mut PgConnection,
    token: Uuid,
    key: &str,
    fingerprint: &[u8],
) -> sqlx::Result<Option<Stored>> {
    let claimed = sqlx::query(
        "insert into idempotency_keys (token_id, key, fingerprint, status, body, expires_at)
         values ($1, $2, $3, 0, '', now() + $4::interval)
         on conflict (token_id, key) do update
             set fingerprint = excluded.fingerprint, status = 0, body = '', created_at = now(),
                 expires_at = excluded.expires_at
             where idempotency_keys.expires_at < now()",
    )
    .bind(token)
    .bind(key)
    .bind(fingerprint)
    .bind(TTL)
    .execute(&mut *conn)
    .await?;
    if claimed.rows_affected() == 1 {
        return Ok(None);
    }
    sqlx::query_as("select fingerprint, status, body from idempotency_keys where token_id = $1 and key = $2")
        .bind(token)
        .bind(key)
        .fetch_optional(conn)
        .await
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
