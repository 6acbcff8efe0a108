//! What every read shares: its body comes from one snapshot, with the ETag of that snapshot,
//! and a client that already holds the current body is answered without it.

use sqlx::PgConnection;

use crate::auth::{Caller, Scope, team_not_found};
use crate::error::{Error, Result};
use crate::store::{Db, teams};

/// A body with the ETag of the snapshot it was read from.
pub struct Tagged<T> {
    pub etag: String,
    pub body: T,
}

/// A conditional read: the client's copy is current (its ETag), or the body to send.
pub enum Fetched<T> {
    Unchanged(String),
    Full(Tagged<T>),
}

/// The ETag of the team's lists when its last event seq is `seq`: every change of the team
/// appends an event, so a list cannot change without it.
pub fn list_etag(seq: i64) -> String {
    format!("\"e{seq}\"")
}

/// A list of the team's, read by `list` in one snapshot with the team's last event seq, its
/// ETag. When the caller holds a copy (`held` says whether an ETag is the one it holds), the
/// seq alone is read first, and a match answers [`Fetched::Unchanged`] without the list.
pub async fn team_list<T>(
    pool: &Db,
    caller: &Caller,
    team: &str,
    held: Option<impl FnOnce(&str) -> bool>,
    list: impl AsyncFnOnce(&mut PgConnection) -> Result<T>,
) -> Result<Fetched<T>> {
    caller.require(team, Scope::Read)?;
    let last_seq = async |conn: &mut PgConnection| {
        let seq = teams::last_event_seq(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok::<_, Error>(list_etag(seq))
    };
    if let Some(held) = held {
        let etag = pool.read(last_seq).await?;
        if held(&etag) {
            return Ok(Fetched::Unchanged(etag));
        }
    }
    pool.snapshot(async |conn| {
        let etag = last_seq(conn).await?;
        Ok(Fetched::Full(Tagged { etag, body: list(conn).await? }))
    })
    .await
}
