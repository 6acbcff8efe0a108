//! The team's event log as clients read it (R12): a page (with its ETag), a long poll, and a
//! stream, the last two woken by the process's one `LISTEN` (`store::listener`).

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::Stream;
use tokio::time::Instant;

use crate::app::actor::{Actor, Scope, team_not_found};
use crate::app::reads::{Fetched, Tagged, list_etag};
use crate::domain::TeamId;
use crate::error::Result;
use crate::resources::{Event, TokenRef};
use crate::store::events::{self, EventRow};
use crate::store::listener::{FALLBACK, Feed, Waiter, Woken};
use crate::store::{Db, teams};

/// The longest `wait` of a long poll.
pub const MAX_WAIT: Duration = Duration::from_secs(60);

/// Events read per query of a stream.
const STREAM_PAGE: i64 = 100;

/// An event as the API returns it.
fn event(e: EventRow) -> Event {
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

/// A page of the team's events after `after` (the team must exist).
async fn first_page(pool: &Db, actor: &Actor, team: &TeamId, after: i64, limit: i64) -> Result<Vec<Event>> {
    Ok(match page(pool, actor, team, after, limit, None::<fn(&str) -> bool>).await? {
        Fetched::Full(page) => page.body,
        Fetched::Unchanged(_) => Vec::new(),
    })
}

/// A page of the log read again by a waiter, whose access was checked when it started.
async fn reread(feed: &Feed, pool: &Db, team: &str, after: i64, limit: i64) -> Result<Vec<Event>> {
    feed.count_read();
    let rows = pool.read(async |conn| events::page(conn, team, after, limit).await).await?;
    Ok(rows.into_iter().map(event).collect())
}

/// A long poll: the events after `after`, as soon as there is at least one, or none once
/// `wait` has passed (or the feed closes). Idle, it reads the log once at the start, once per
/// wake-up of its team, and once per [`FALLBACK`].
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
    let items = first_page(pool, actor, team, after, limit).await?;
    if !items.is_empty() {
        return Ok(items);
    }
    loop {
        match waiter.wait(deadline).await {
            Woken::Deadline | Woken::Closed => return Ok(Vec::new()),
            Woken::Event | Woken::Fallback => {}
        }
        waiter.drain();
        let items = reread(feed, pool, team, after, limit).await?;
        if !items.is_empty() {
            return Ok(items);
        }
    }
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
    let (after, first) = match after {
        Some(after) => (after, first_page(pool, &actor, &team, after, STREAM_PAGE).await?),
        None => (last_seq(pool, &actor, &team).await?, Vec::new()),
    };
    let pool = pool.clone();
    let cursor = Cursor { feed: feed.clone(), pool, actor, team, after, buffer: first.into(), waiter };
    Ok(futures_util::stream::unfold(cursor, Cursor::next))
}

struct Cursor {
    feed: Feed,
    pool: Db,
    actor: Actor,
    team: TeamId,
    after: i64,
    buffer: VecDeque<Event>,
    waiter: Waiter,
}

impl Cursor {
    async fn next(mut self) -> Option<(Event, Self)> {
        loop {
            if let Some(event) = self.buffer.pop_front() {
                if self.revokes_actor(&event) {
                    return None;
                }
                self.after = event.seq;
                return Some((event, self));
            }
            self.waiter.drain();
            match reread(&self.feed, &self.pool, &self.team, self.after, STREAM_PAGE).await {
                Ok(items) if !items.is_empty() => self.buffer = items.into(),
                Ok(_) => match self.waiter.wait(Instant::now() + FALLBACK).await {
                    Woken::Closed => return None,
                    Woken::Event | Woken::Fallback | Woken::Deadline => {}
                },
                Err(e) => {
                    tracing::warn!(error = %e, team = %self.team, after = self.after, "ending an event stream: reading the log failed");
                    return None;
                }
            }
        }
    }

    /// A revoked token must stop reading at once, as every request of it does.
    fn revokes_actor(&self, event: &Event) -> bool {
        let Some(id) = self.actor.token_id else { return false };
        #[derive(serde::Deserialize)]
        struct Revoked {
            token_id: uuid::Uuid,
        }
        event.kind == "token.revoked"
            && serde_json::from_str::<Revoked>(event.data.get()).is_ok_and(|r| r.token_id == id)
    }
}
