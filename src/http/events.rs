//! The team's event log: a page, a long poll, and Server-Sent Events.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, Method};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::app::actor::Actor;
use crate::app::events::{self, MAX_WAIT};
use crate::domain::TeamId;
use crate::error::{Error, Result};
use crate::http::extract::{Path, Query};
use crate::http::paging::limit;
use crate::http::preconditions::{self};
use crate::http::state::AppState;
use crate::resources::{Event, EventPage};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(events)).routes(routes!(event_stream))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventQuery {
    /// Return events with a seq above this; 0 (the default) for the first.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
    /// Long poll: 0 to 60 seconds, default 0. With no event after `after`, the answer waits
    /// until one commits (and then answers at once) or `wait` seconds pass (and then answers an
    /// empty page with `next_after` = `after`).
    #[param(minimum = 0, maximum = 60)]
    pub wait: Option<i64>,
}

/// The team's events in seq order (R12). Poll with `after` = the last `next_after`: an event is
/// served only once every event before it has committed, so a poller never skips one.
///
/// With `wait` > 0 this is a long poll: it answers as soon as an event after `after` exists,
/// or with an empty page after `wait` seconds. Idle long polls cost the database nothing per
/// second: one `LISTEN` per process wakes them when their team's events commit, and one read
/// per team serves all of them. A long poll whose token is revoked (while it waits, or within
/// the token cache's TTL on another replica) answers 401 `unauthenticated` rather than a page
/// holding the revocation: a revoked token reads nothing more.
///
/// With `wait` = 0 (the default) the page carries an `ETag` that changes with the team's last
/// seq, and `If-None-Match` answers 304. A long poll (`wait` > 0) carries no ETag and ignores
/// `If-None-Match`: it answers only when there is something new, or an empty page.
#[utoipa::path(get, path = "/v1/teams/{team}/events", tag = "events",
    params(("team" = String, Path, description = "team id"), EventQuery),
    responses(
        (status = 200, description = "a page of events (empty when a long poll's `wait` passed)", body = EventPage,
         headers(("ETag" = String, description = "with `wait` = 0 only: changes when the team's events change"))),
        (status = 304, description = "not modified (`wait` = 0 only): `If-None-Match` matches the ETag")))]
async fn events(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(query): Query<EventQuery>,
) -> Result<Response> {
    let limit = limit(query.limit)?;
    let after = after_seq("after", query.after)?.unwrap_or(0);
    let wait = match query.wait.unwrap_or(0) {
        w if (0..=MAX_WAIT.as_secs() as i64).contains(&w) => Duration::from_secs(w as u64),
        _ => return Err(Error::invalid("wait", "must be between 0 and 60 seconds")),
    };
    let page = |items: Vec<Event>| EventPage { next_after: items.last().map_or(after, |e| e.seq), items };
    if wait.is_zero() {
        let held = preconditions::held(&headers);
        let fetched = events::page(&state.pool, &actor, &team, after, limit, held).await?;
        return Ok(preconditions::respond(fetched, page));
    }
    let items = events::poll(&state.feed, &state.pool, &actor, &team, after, limit, wait).await?;
    Ok(axum::Json(page(items)).into_response())
}

fn after_seq(field: &str, after: Option<i64>) -> Result<Option<i64>> {
    match after {
        Some(n) if n < 0 => Err(Error::invalid(field, "must be at least 0")),
        n => Ok(n),
    }
}

/// How much longer than the request timeout a request may take: a long poll's `wait`. The
/// timeout middleware adds it, so a long poll of 60 seconds is not cut at 30.
pub fn long_poll_wait(request: &Request) -> Duration {
    #[derive(Deserialize)]
    struct Wait {
        wait: Option<u64>,
    }
    let segments: Vec<&str> = request.uri().path().split('/').collect();
    if request.method() != Method::GET || !matches!(segments[..], ["", "v1", "teams", _, "events"]) {
        return Duration::ZERO;
    }
    let wait = axum::extract::Query::<Wait>::try_from_uri(request.uri()).ok().and_then(|q| q.0.wait);
    Duration::from_secs(wait.unwrap_or(0)).min(MAX_WAIT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Start after this seq (0 for the whole log). Ignored when a `Last-Event-ID` header is
    /// sent; with neither, the stream starts with the next event to commit.
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// How often an idle stream sends a keep-alive comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The team's events as Server-Sent Events, in seq order, as they commit. Each is sent as
/// `id: <seq>`, `event: <type>` and `data: <the event as in GET /events>`; a comment line
/// (`: keep-alive`) every 15 seconds keeps an idle connection open.
///
/// The stream starts after the `Last-Event-ID` header, which an `EventSource` sends when it
/// reconnects, so it resumes without a gap or a repeat; else after `after`; else with the next
/// event to commit (nothing already in the log). The stream ends when the token that opened it
/// is revoked (before sending its revocation), when the server shuts down, or when the log
/// cannot be read: reconnect with `Last-Event-ID` to resume.
#[utoipa::path(get, path = "/v1/teams/{team}/events/stream", tag = "events",
    params(("team" = String, Path, description = "team id"), StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, nullable = false, minimum = 0,
            description = "resume after this seq (the `id` of the last event received); wins over `after`")),
    responses((status = 200, content_type = "text/event-stream", body = String,
        description = "an endless stream of events: `id: <seq>`, `event: <type>`, `data: <Event as JSON>`, each event \
                       ended by a blank line, and `: keep-alive` comments")))]
async fn event_stream(
    State(state): State<AppState>,
    actor: Actor,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
    Query(query): Query<StreamQuery>,
) -> Result<Response> {
    // An empty Last-Event-ID means the client has no id yet (as EventSource resets it).
    let last_event_id = headers.get("last-event-id").filter(|v| !v.as_bytes().trim_ascii().is_empty());
    let after = match last_event_id {
        Some(value) => {
            let seq = value.to_str().ok().and_then(|v| v.trim().parse::<i64>().ok());
            let seq = seq.ok_or_else(|| Error::invalid("Last-Event-ID", "must be an event's seq"))?;
            after_seq("Last-Event-ID", Some(seq))?
        }
        None => after_seq("after", query.after)?,
    };
    let events = events::stream(&state.feed, &state.pool, actor, team, after).await?;
    let events = events.map(|e| {
        let data = serde_json::to_string(&e).expect("an event serializes");
        Ok::<_, Infallible>(SseEvent::default().id(e.seq.to_string()).event(e.kind).data(data))
    });
    let sse = Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"));
    // Asks a reverse proxy (nginx) not to buffer the stream.
    Ok(([(HeaderName::from_static("x-accel-buffering"), "no")], sse).into_response())
}
