//! The unit of work every write is: one transaction that claims the request's
//! `Idempotency-Key`, runs the use case (lock, load, decide, write), stores its reply under the
//! key with the seq of the event it appends, and commits. A refused write is rolled back before it is
//! answered; what it did for the metrics is recorded only once it commits.

use serde::Serialize;
use sqlx::{Postgres, Transaction};

use crate::app::actor::Actor;
use crate::domain::Code;
use crate::error::{Error, Result};
use crate::metrics::Counted;
use crate::store::Db;
use crate::store::events::{self, NewEvent};
use crate::store::idempotency::{self, Claim};

/// A request's `Idempotency-Key` with the fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub key: String,
    /// SHA-256 of the method, the path and the body.
    pub fingerprint: Vec<u8>,
}

/// What a write request asserts besides its body.
#[derive(Debug, Clone, Default)]
pub struct Preconditions {
    /// Makes a retry safe: a repeat answers the first reply.
    pub idempotency: Option<IdempotencyKey>,
    /// The ETag of the artifact as the client last read it (writes to one artifact only).
    pub if_match: Option<String>,
}

/// What a write did to what it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Created,
    Updated,
    Removed,
}

impl Change {
    /// How a reply stored under an idempotency key records its change: as the HTTP status it is
    /// answered with, so replies stored by earlier versions read the same.
    fn stored(self) -> u16 {
        match self {
            Change::Created => 201,
            Change::Updated => 200,
            Change::Removed => 204,
        }
    }

    fn from_stored(status: i32) -> Change {
        match status {
            201 => Change::Created,
            204 => Change::Removed,
            _ => Change::Updated,
        }
    }
}

/// What a write answers, with the seq of the event it committed to its team's log (R18): a read
/// or event poll at or past it sees the write. No seq for a server-wide write, which no team's
/// log records.
#[derive(Debug)]
pub enum Outcome<T> {
    /// It ran now.
    Done(Change, T, Option<i64>),
    /// A request with the same `Idempotency-Key` ran before: its reply and seq as first sent.
    Replayed { change: Change, body: Vec<u8>, seq: Option<i64> },
}

/// A write's result, before it commits.
pub struct Done<'e, T> {
    pub change: Change,
    pub reply: T,
    /// The event it appends to its team's log; none for a server-wide write, which has no team.
    pub event: Option<NewEvent<'e>>,
    /// What a replay answers instead of the reply, when that holds what must never be stored
    /// (a token's secret).
    pub replay: Option<Replay>,
}

/// A reply stored for replays in place of the one first sent.
pub struct Replay {
    pub change: Change,
    pub body: serde_json::Value,
}

impl<'e, T> Done<'e, T> {
    pub fn new(change: Change, reply: T, event: NewEvent<'e>) -> Self {
        Done { change, reply, event: Some(event), replay: None }
    }

    /// The result of a server-wide write (one no team's log records).
    pub fn server_wide(change: Change, reply: T) -> Self {
        Done { change, reply, event: None, replay: None }
    }

    /// Replays answer `body` with `change`'s status instead of the reply.
    pub fn replayed_as(self, change: Change, body: impl Serialize) -> Result<Self> {
        let body = serde_json::to_value(body).map_err(internal)?;
        Ok(Done { replay: Some(Replay { change, body }), ..self })
    }
}

/// A write in progress: its transaction, and what it will count once it commits.
pub struct Write {
    pub tx: Transaction<'static, Postgres>,
    counted: Vec<Counted>,
}

impl Write {
    /// Counts `what` in the metrics if, and once, this write commits.
    pub fn count(&mut self, what: Counted) {
        self.counted.push(what);
    }
}

/// Runs `work` as one write of `team`'s (`None`: a server-wide write, which logs no event). A request whose key already has a reply answers with
/// it, replayed, before anything runs; the same key with another request is 422
/// `idempotency_key_reused`, and a repeat while the first request with the key still runs is
/// 409 `idempotency_key_in_flight`.
pub async fn run<'e, T: Serialize>(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: Option<&str>,
    work: impl AsyncFnOnce(&mut Write) -> Result<Done<'e, T>>,
) -> Result<Outcome<T>> {
    let tx = pool.begin().await?;
    let mut write = Write { tx, counted: Vec::new() };
    let claimed = match &pre.idempotency {
        Some(key) => claim(&mut write.tx, team, actor, key).await,
        None => Ok(None),
    };
    let done = match claimed {
        Ok(None) => work(&mut write).await,
        Ok(Some((change, body, seq))) => {
            write.tx.rollback().await?;
            return Ok(Outcome::Replayed { change, body, seq });
        }
        Err(e) => Err(e),
    };
    let done = match done {
        Ok(done) => done,
        Err(refused) => {
            // Now, not when the pool gets the connection back: the key and the locks are free
            // before the client can retry. The refusal is the answer, whatever the rollback says.
            let _ = write.tx.rollback().await;
            return Err(refused);
        }
    };
    let seq = match (team, done.event) {
        (Some(team), Some(event)) => {
            Some(events::append(&mut write.tx, team, (actor.token_id, &actor.token_name), event).await?)
        }
        _ => None,
    };
    if let Some(IdempotencyKey { key, .. }) = &pre.idempotency {
        let (change, body) = match &done.replay {
            Some(Replay { change, body }) => (*change, serde_json::to_vec(body).map_err(internal)?),
            None if done.change == Change::Removed => (done.change, Vec::new()),
            None => (done.change, serde_json::to_vec(&done.reply).map_err(internal)?),
        };
        idempotency::complete(
            &mut write.tx,
            team.unwrap_or(idempotency::NO_TEAM),
            actor.key_owner,
            key,
            change.stored(),
            &body,
            seq,
        )
        .await?;
    }
    write.tx.commit().await?;
    write.counted.into_iter().for_each(Counted::record);
    Ok(Outcome::Done(done.change, done.reply, seq))
}

/// Claims the key for this write; or the stored reply of the request that claimed it first.
async fn claim(
    tx: &mut Transaction<'static, Postgres>,
    team: Option<&str>,
    actor: &Actor,
    IdempotencyKey { key, fingerprint }: &IdempotencyKey,
) -> Result<Option<(Change, Vec<u8>, Option<i64>)>> {
    let stored =
        match idempotency::claim(tx, team.unwrap_or(idempotency::NO_TEAM), actor.key_owner, key, fingerprint)
            .await?
        {
            Claim::Claimed => return Ok(None),
            Claim::InFlight => return Err(Error::IdempotencyKeyInFlight),
            Claim::Stored(stored) => stored,
        };
    if stored.fingerprint != *fingerprint {
        return Err(Error::refused(
            Code::IdempotencyKeyReused,
            "this Idempotency-Key was used for a different request (method, path or body)",
        ));
    }
    Ok(Some((Change::from_stored(stored.status), stored.body, stored.seq)))
}

fn internal(e: serde_json::Error) -> Error {
    Error::Internal(format!("serializing a stored response: {e}"))
}
