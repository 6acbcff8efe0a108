//! The frame of every write: one transaction that first claims the request's
//! `Idempotency-Key`, and last stores the response under it and appends the change's event.
//! What the write did for the metrics is recorded only once the commit succeeds.

use axum::http::StatusCode;
use serde::Serialize;
use sqlx::{Postgres, Transaction};

use crate::auth::{Caller, IdempotencyKey};
use crate::error::{Error, Result};
use crate::metrics::Counted;
use crate::store::Db;
use crate::store::events::{self, NewEvent};
use crate::store::idempotency::{self, Claim};

/// A write's outcome: the HTTP status and the body.
pub type Reply<T> = (StatusCode, T);

pub struct Write {
    pub tx: Transaction<'static, Postgres>,
    /// Recorded after the commit; dropped with the transaction when the write fails.
    counted: Vec<Counted>,
}

/// Begins a write. A request whose key already has a response answers with it, replayed,
/// before anything runs; the same key with another request is 422 `idempotency_key_reused`, and
/// a repeat while the first request with the key still runs is 409 `idempotency_key_in_flight`.
pub async fn begin(pool: &Db, caller: &Caller) -> Result<Write> {
    let Some(IdempotencyKey { key, fingerprint }) = &caller.idempotency else {
        return Ok(Write { tx: pool.begin().await?, counted: Vec::new() });
    };
    let mut retried = false;
    let stored = loop {
        let mut tx = pool.begin().await?;
        let claim = idempotency::claim(&mut tx, caller.key_owner, key, fingerprint).await?;
        if let Claim::Claimed = claim {
            return Ok(Write { tx, counted: Vec::new() });
        }
        // Ended now rather than when the pool gets the connection back, so that this request's
        // hold on the key is gone before it answers.
        tx.rollback().await?;
        match claim {
            Claim::Stored(stored) => break stored,
            // A write that just ended (a refusal) may not have released the key yet: look once
            // more a moment later, holding no connection meanwhile.
            Claim::InFlight if !retried => {
                retried = true;
                tokio::time::sleep(IN_FLIGHT_RECHECK).await;
            }
            _ => return Err(Error::IdempotencyKeyInFlight),
        }
    };
    if stored.fingerprint != *fingerprint {
        return Err(Error::refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            "this Idempotency-Key was used for a different request (method, path or body)",
        ));
    }
    let status = StatusCode::from_u16(stored.status as u16).unwrap_or(StatusCode::OK);
    Err(Error::Replayed { status, body: stored.body })
}

/// How long a request whose key is in flight waits, with no connection, before it looks again.
const IN_FLIGHT_RECHECK: std::time::Duration = std::time::Duration::from_millis(20);

impl Write {
    /// Counts `what` in the metrics if, and once, this write commits.
    pub fn count(&mut self, what: Counted) {
        self.counted.push(what);
    }

    /// Stores the response under the request's key, appends the event and commits. The event
    /// comes last: it takes the team's seq under the lock of its `team_seqs` row, held only until commit.
    pub async fn commit<T: Serialize>(
        self,
        team: &str,
        caller: &Caller,
        event: NewEvent<'_>,
        reply: Reply<T>,
    ) -> Result<Reply<T>> {
        self.commit_storing(team, caller, event, reply, |body| serde_json::to_vec(body)).await
    }

    /// As [`Write::commit`], storing the bytes `stored(body)` for a replay: a response holding a
    /// secret stores it without. The bytes are the body's own serialization (not through
    /// `serde_json::Value`, which would reorder its keys), so a replay is byte-identical.
    pub async fn commit_storing<T: Serialize>(
        mut self,
        team: &str,
        caller: &Caller,
        event: NewEvent<'_>,
        reply: Reply<T>,
        stored: impl FnOnce(&T) -> serde_json::Result<Vec<u8>>,
    ) -> Result<Reply<T>> {
        if let Some(IdempotencyKey { key, .. }) = &caller.idempotency {
            let body = match reply.0 {
                StatusCode::NO_CONTENT => Vec::new(),
                _ => stored(&reply.1).map_err(internal)?,
            };
            idempotency::complete(&mut self.tx, caller.key_owner, key, reply.0.as_u16(), &body).await?;
        }
        events::append(&mut self.tx, team, caller, event).await?;
        self.tx.commit().await?;
        self.counted.into_iter().for_each(Counted::record);
        Ok(reply)
    }
}

fn internal(e: serde_json::Error) -> Error {
    Error::Internal(format!("serializing a stored response: {e}"))
}
