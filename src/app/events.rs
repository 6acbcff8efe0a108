//! The team's event log as clients read it (R12): a page (with its ETag), a long poll, and a
//! stream, the last two served by their team's hub (`store::listener`), woken by the process's
//! one `LISTEN`.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::Stream;
use tokio::time::Instant;

use crate::app::actor::{Actor, team_not_found};
use crate::app::reads::{Fetched, Tagged, list_etag};
use crate::domain::Scope;
use crate::domain::TeamId;
use crate::error::{Error, Result};
use crate::resources::events::EventData;
use crate::resources::{Event, TokenRef};
use crate::store::events::{self, EventRow};
use crate::store::listener::{Feed, Next, Waiter};
use crate::store::{Db, teams};

/// The longest `wait` of a long poll.
pub const MAX_WAIT: Duration = Duration::from_secs(60);

/// Events read per query of a stream.
const STREAM_PAGE: i64 = 100;

/// An event as the API returns it: its `data` as stored, not parsed again (see
/// [`Event::data`]).
pub fn event(e: EventRow) -> Event {
    Event {
        seq: e.seq,
        at: e.at,
        artifact: e.artifact,
        kind: e.kind,
        actor: e.actor,
        token: TokenRef { id: e.token_id, name: e.token_name },
        data: e.data.0,
    }
}

/// A page of the team's events after `after`, with the team's last seq as its ETag, from one
/// statement. When the actor holds a copy, `held` says whether an ETag is the one it holds,
/// and if so only the seq is read.
pub async fn page(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    after: i64,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Event>>> {
    actor.require(team, Scope::Read)?;
    pool.read(async |conn| {
        if let Some(held) = held {
            let seq = teams::last_event_seq(conn, team).await?.ok_or_else(|| team_not_found(team))?;
            let etag = list_etag(seq);
            if held(&etag) {
                return Ok(Fetched::Unchanged(etag));
            }
        }
        let (seq, rows) =
            events::tagged_page(conn, team, after, limit).await?.ok_or_else(|| team_not_found(team))?;
        Ok(Fetched::Full(Tagged { etag: list_etag(seq), body: rows.into_iter().map(event).collect() }))
    })
    .await
}

/// The team's last seq and its events after `after`, from one statement (the team must exist).
async fn first_page(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    after: i64,
    limit: i64,
) -> Result<(i64, Vec<EventRow>)> {
    actor.require(team, Scope::Read)?;
    pool.read(async |conn| events::tagged_page(conn, team, after, limit).await)
        .await?
        .ok_or_else(|| team_not_found(team))
}

/// A long poll: the events after `after`, as soon as there is at least one, or none once
/// `wait` has passed (or the feed closes). Idle, it reads the log once at the start; its
/// team's hub reads once per wake-up and [`FALLBACK`](crate::store::listener::FALLBACK) for
/// all the team's waiters. A page that holds the revocation of the actor's own token answers
/// `unauthenticated` instead: a revoked token reads nothing more, as for any request.
pub async fn poll(
    feed: &Feed,
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    after: i64,
    limit: i64,
    wait: Duration,
) -> Result<Vec<Event>> {
    let deadline = Instant::now() + wait.min(MAX_WAIT);
    let mut waiter = feed.subscribe(team);
    // Checks the actor and the team too.
    let (last, mut rows) = first_page(pool, actor, team, after, limit).await?;
    waiter.seen(last);
    if rows.is_empty() {
        rows = match waiter.next(after, limit, Some(deadline)).await? {
            Next::Events(rows) => rows,
            Next::Deadline | Next::Closed => Vec::new(),
        };
    }
    for row in &rows {
        if revokes(actor, row)? {
            return Err(Error::Unauthenticated);
        }
    }
    Ok(rows.into_iter().map(event).collect())
}

/// The team's last seq, for a stream that starts with the events still to come.
async fn last_seq(pool: &Db, actor: &Actor, team: &TeamId) -> Result<i64> {
    actor.require(team, Scope::Read)?;
    pool.read(async |conn| teams::last_event_seq(conn, team).await).await?.ok_or_else(|| team_not_found(team))
}

/// The team's events after `after` (or, when `None`, after its last seq now), endlessly: the
/// actor's access is checked before the stream starts. The stream ends when the feed closes,
/// when the log cannot be read (the client resumes with `Last-Event-ID`), or at the
/// revocation of the actor's own token, which it does not send.
pub async fn stream(
    feed: &Feed,
    pool: &Db,
    actor: Actor,
    team: TeamId,
    after: Option<i64>,
) -> Result<impl Stream<Item = Event> + Send + 'static> {
    let waiter = feed.subscribe(&team);
    let (last, after, first) = match after {
        Some(after) => {
            let (last, first) = first_page(pool, &actor, &team, after, STREAM_PAGE).await?;
            (last, after, first)
        }
        None => {
            let last = last_seq(pool, &actor, &team).await?;
            (last, last, Vec::new())
        }
    };
    waiter.seen(last);
    let cursor = Cursor { actor, team, after, buffer: first.into(), waiter };
    Ok(futures_util::stream::unfold(cursor, Cursor::next))
}

struct Cursor {
    actor: Actor,
    team: TeamId,
    after: i64,
    buffer: VecDeque<EventRow>,
    waiter: Waiter,
}

impl Cursor {
    async fn next(mut self) -> Option<(Event, Self)> {
        loop {
            if let Some(row) = self.buffer.pop_front() {
                match revokes(&self.actor, &row) {
                    Ok(false) => {}
                    Ok(true) => return None,
                    Err(e) => {
                        tracing::error!(error = %e, team = %self.team, "ending an event stream: an event does not read as its type");
                        return None;
                    }
                }
                self.after = row.seq;
                return Some((event(row), self));
            }
            match self.waiter.next(self.after, STREAM_PAGE, None).await {
                Ok(Next::Events(rows)) => self.buffer = rows.into(),
                Ok(Next::Closed | Next::Deadline) => return None,
                Err(e) => {
                    tracing::warn!(error = %e, team = %self.team, after = self.after, "ending an event stream: reading the log failed");
                    return None;
                }
            }
        }
    }
}

/// Whether the event revokes the actor's own token, after which it must read nothing more, as
/// every request of it is refused. Every event of a long poll or a stream is read as its type
/// here (about half a microsecond, as much as serializing it for the waiter), so one this
/// version does not know ends it loudly.
fn revokes(actor: &Actor, row: &EventRow) -> Result<bool> {
    let Some(id) = actor.token_id else { return Ok(false) };
    Ok(matches!(data(row)?, EventData::TokenRevoked(revoked) if revoked.token_id == id))
}

/// The row's `type` and `data` read as their [`EventData`]. A row this version does not know (a
/// `type`, or a field unknown, missing or of another shape) is an error naming its seq, never
/// taken for another event.
pub fn data(row: &EventRow) -> Result<EventData> {
    EventData::parse(&row.kind, row.data.get())
        .map_err(|e| Error::Internal(format!("event {} of the log does not read as its type: {e}", row.seq)))
}
