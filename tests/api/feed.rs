//! The live feed: `GET /events?wait=` long polls and `GET /events/stream` Server-Sent Events,
//! woken by the process's one `LISTEN` when a team's event commits.
//!
//! Timing bounds are generous (this runs on noisy machines): "early" means well under the
//! wait, never a tight latency.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use reviewlock::AppState;
use serde_json::{Value, json};
use sqlx::PgPool;
use tower::ServiceExt;

use crate::common::{ADMIN, Api, Reply};
use crate::examples::Team;

/// The team's last seq, read through the feed itself.
async fn last_seq(t: &Team) -> i64 {
    let page = t.api.get(&t.url("/events?limit=500"), &t.coord).await;
    page.expect(200, None)["next_after"].as_i64().unwrap()
}

/// A GET with extra headers.
async fn get_with(api: &Api, path: &str, token: &str, headers: &[(&str, &str)]) -> Reply {
    api.raw(request(path, token, headers)).await
}

fn request(path: &str, token: &str, headers: &[(&str, &str)]) -> Request<Body> {
    let mut request = Request::get(path).header("authorization", format!("Bearer {token}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(Body::empty()).unwrap()
}

/// An [`Api`] and its state, to read its feed or shorten its request timeout.
fn api_with(pool: PgPool, configure: impl FnOnce(&mut AppState)) -> (Api, AppState) {
    let api = Api::with_state(pool, configure);
    let state = api.state.clone();
    (api, state)
}

fn seqs(page: &Value) -> Vec<i64> {
    page["items"].as_array().unwrap().iter().map(|e| e["seq"].as_i64().unwrap()).collect()
}

// --- long poll -------------------------------------------------------------------------------

#[sqlx::test]
async fn a_long_poll_answers_as_soon_as_an_event_commits(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let last = last_seq(&t).await;
    let path = t.url(&format!("/events?after={last}&wait=10"));
    let started = Instant::now();
    let (poll, created) = tokio::join!(t.api.get(&path, &t.coord), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        t.create("auth", "a").await
    });
    let elapsed = started.elapsed();
    created.expect(201, None);
    let page = poll.expect(200, None);
    assert_eq!(seqs(page), [last + 1], "the poll answers with the event committed during its wait");
    assert_eq!(page["items"][0]["type"], "artifact.created");
    assert_eq!(page["next_after"], last + 1);
    assert!(poll.headers.get("etag").is_none(), "a long poll carries no ETag");
    assert!(elapsed >= Duration::from_millis(150), "the poll waited for the write: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(8), "the poll answered long before its 10 s wait: {elapsed:?}");
}

#[sqlx::test]
async fn a_long_poll_answers_at_once_when_an_event_already_exists(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let started = Instant::now();
    // 60 seconds is the longest wait accepted.
    let page = t.api.get(&t.url("/events?after=0&limit=2&wait=60"), &t.coord).await;
    assert_eq!(seqs(page.expect(200, None)), [1, 2]);
    assert!(started.elapsed() < Duration::from_secs(8));
}

#[sqlx::test]
async fn a_long_poll_without_events_answers_empty_after_its_wait(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let last = last_seq(&t).await;
    let started = Instant::now();
    let poll = t.api.get(&t.url(&format!("/events?after={last}&wait=1")), &t.coord).await;
    let elapsed = started.elapsed();
    let page = poll.expect(200, None);
    assert_eq!(page["items"], json!([]));
    assert_eq!(page["next_after"], last, "next_after stays at after");
    assert!(elapsed >= Duration::from_millis(900), "the poll waited about 1 s: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(6), "the poll ended after about 1 s: {elapsed:?}");
}

/// An event this version does not know (written by a newer one, or by hand) is served as
/// stored by a page, but the live feed, which reads each event as its type, fails loudly rather
/// than pass it over.
#[sqlx::test]
async fn a_long_poll_over_an_event_of_unknown_type_fails_loudly(pool: PgPool) {
    let t = Team::new(pool.clone(), Value::Null, &["a"]).await;
    let last = last_seq(&t).await;
    sqlx::query(
        "with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = 't' returning last_event_seq)
         insert into events (team_id, seq, type, token_name, data)
         select 't', s.last_event_seq, 'review.withdrawn', 'hand', '{\"version\": 1}' from s",
    )
    .execute(&pool)
    .await
    .unwrap();
    let page = t.api.get(&t.url(&format!("/events?after={last}")), &t.coord).await;
    let page = page.expect(200, None);
    assert_eq!(page["items"][0]["type"], "review.withdrawn");
    assert_eq!(page["items"][0]["data"], json!({ "version": 1 }));
    let poll = t.api.get(&t.url(&format!("/events?after={last}&wait=1")), &t.coord).await;
    poll.expect(500, Some("internal"));
}

#[sqlx::test]
async fn wait_is_0_to_60_seconds(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    for wait in ["61", "-1", "3600"] {
        let reply = t.api.get(&t.url(&format!("/events?wait={wait}")), &t.coord).await;
        let body = reply.expect(422, Some("invalid_field"));
        assert_eq!(body["errors"][0]["field"], "wait", "wait={wait}: {body}");
    }
    let reply = t.api.get(&t.url("/events?wait=soon"), &t.coord).await;
    reply.expect(422, Some("invalid_field"));
    // Refusals come before any wait: another team and a missing team answer at once.
    let started = Instant::now();
    t.api.get("/v1/teams/nowhere/events?wait=10", ADMIN).await.expect(404, Some("not_found"));
    t.api.get("/v1/teams/t/events?wait=10", "rl_not-a-token").await.expect(401, Some("unauthenticated"));
    assert!(started.elapsed() < Duration::from_secs(8));
}

#[sqlx::test]
async fn the_events_page_has_an_etag_and_answers_304_while_nothing_changed(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let first = t.api.get(&t.url("/events?after=0"), &t.coord).await;
    first.expect(200, None);
    let etag = first.headers["etag"].to_str().unwrap().to_owned();
    let unchanged = get_with(&t.api, &t.url("/events?after=0"), &t.coord, &[("if-none-match", &etag)]).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);
    assert_eq!(unchanged.body, Value::Null, "a 304 has no body");
    assert_eq!(unchanged.headers["etag"].to_str().unwrap(), etag);
    // A new event changes the tag; the old one no longer matches.
    t.create("auth", "a").await.expect(201, None);
    let changed = get_with(&t.api, &t.url("/events?after=0"), &t.coord, &[("if-none-match", &etag)]).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_ne!(changed.headers["etag"].to_str().unwrap(), etag);
    assert_eq!(changed.body["items"].as_array().unwrap().last().unwrap()["type"], "artifact.created");
    // A long poll ignores If-None-Match: it answers with the events (and no ETag).
    let new_etag = changed.headers["etag"].to_str().unwrap().to_owned();
    let poll =
        get_with(&t.api, &t.url("/events?after=0&wait=5"), &t.coord, &[("if-none-match", &new_etag)]).await;
    assert_eq!(poll.status, StatusCode::OK);
    assert!(poll.headers.get("etag").is_none());
    assert_eq!(poll.body["items"], changed.body["items"]);
}

#[sqlx::test]
async fn a_long_poll_may_outlast_the_request_timeout(pool: PgPool) {
    let (api, _) = api_with(pool, |s| s.request_timeout = Duration::from_secs(1));
    api.team("t", Value::Null).await;
    let token = api.token("t", "read").await;
    let last = api.get("/v1/teams/t/events?limit=500", &token).await.ok()["next_after"].as_i64().unwrap();
    let started = Instant::now();
    let poll = api.get(&format!("/v1/teams/t/events?after={last}&wait=2"), &token).await;
    assert_eq!(poll.expect(200, None)["items"], json!([]), "the wait is added to the 1 s request timeout");
    assert!(started.elapsed() >= Duration::from_millis(1900));
}

#[sqlx::test]
async fn several_long_pollers_on_one_team_all_wake_on_one_event(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let last = last_seq(&t).await;
    let path = t.url(&format!("/events?after={last}&wait=10"));
    let started = Instant::now();
    let pollers = futures_util::future::join_all((0..5).map(|_| t.api.get(&path, &t.coord)));
    let (polls, created) = tokio::join!(pollers, async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        t.create("auth", "a").await
    });
    let elapsed = started.elapsed();
    created.expect(201, None);
    for poll in &polls {
        let page = poll.expect(200, None);
        assert_eq!(seqs(page), [last + 1], "every poller sees the one event");
    }
    assert!(elapsed < Duration::from_secs(8), "all woke long before their 10 s wait: {elapsed:?}");
}

#[sqlx::test]
async fn long_polls_still_wake_after_the_listener_loses_its_connection(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let last = last_seq(&t).await;
    // Starts the listener, then kills its connection from the server side.
    t.api.get(&t.url(&format!("/events?after={last}&wait=1")), &t.coord).await.expect(200, None);
    let killed: Vec<bool> = sqlx::query_scalar(
        "select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query like 'LISTEN%'",
    )
    .fetch_all(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(killed, [true], "one listening connection");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let path = t.url(&format!("/events?after={last}&wait=10"));
    let started = Instant::now();
    let (poll, created) = tokio::join!(t.api.get(&path, &t.coord), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        t.create("auth", "a").await
    });
    created.expect(201, None);
    assert_eq!(seqs(poll.expect(200, None)), [last + 1]);
    assert!(started.elapsed() < Duration::from_secs(8), "woken by the reconnected listener");
}

#[sqlx::test]
async fn idle_long_polls_do_not_read_the_log_every_second(pool: PgPool) {
    let (api, state) = api_with(pool, |_| {});
    api.team("t", Value::Null).await;
    api.team("other", Value::Null).await;
    let token = api.token("t", "read").await;
    let last = api.get("/v1/teams/t/events?limit=500", &token).await.ok()["next_after"].as_i64().unwrap();
    // Starts the listener, and lets it connect.
    api.get(&format!("/v1/teams/t/events?after={last}&wait=1"), &token).await.expect(200, None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = state.feed.reads();
    // Four pollers wait 3 s while another team writes: its events wake none of them.
    let path = format!("/v1/teams/t/events?after={last}&wait=3");
    let pollers = futures_util::future::join_all((0..4).map(|_| api.get(&path, &token)));
    let (polls, ()) = tokio::join!(pollers, async {
        for i in 0..3 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            api.agent("other", &format!("x{i}"), json!({ "roles": ["engineer"] })).await;
        }
    });
    for poll in &polls {
        assert_eq!(poll.expect(200, None)["items"], json!([]));
    }
    // Each poller read the log once when it began (not counted); re-reading every second
    // would be 4 × 3 more reads, and waking on the other team's events 4 × 3 too.
    let reads = state.feed.reads() - before;
    assert!(reads <= 4, "idle pollers re-read the log {reads} times in 3 s");
}

// --- Server-Sent Events ----------------------------------------------------------------------

/// One event as sent on the stream.
#[derive(Debug)]
struct Sent {
    id: i64,
    event: String,
    data: Value,
}

/// A stream's body, read frame by frame as it arrives.
struct EventStream {
    body: Body,
    buffer: String,
}

impl EventStream {
    /// Opens the stream; panics unless it is a 200 `text/event-stream`.
    async fn open(api: &Api, path: &str, token: &str, headers: &[(&str, &str)]) -> EventStream {
        let response = api.app.clone().oneshot(request(path, token, headers)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        EventStream { body: response.into_body(), buffer: String::new() }
    }

    /// The next event, skipping comments; `None` when the stream ends. Panics after 10 s.
    async fn next(&mut self) -> Option<Sent> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut id, mut event, mut data) = (None, None, None);
                for line in block.lines().filter(|l| !l.is_empty()) {
                    match line.split_once(':') {
                        Some(("id", v)) => id = Some(v.trim().parse().unwrap()),
                        Some(("event", v)) => event = Some(v.trim().to_owned()),
                        Some(("data", v)) => data = Some(serde_json::from_str(v.trim()).unwrap()),
                        Some(("", _)) => {} // a comment: keep-alive
                        _ => panic!("unexpected line in the stream: {line:?}"),
                    }
                }
                if let (Some(id), Some(event), Some(data)) = (id, event, data) {
                    return Some(Sent { id, event, data });
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = tokio::time::timeout(left, self.body.frame()).await.expect("an event within 10 s");
            match frame {
                None => return None,
                Some(frame) => {
                    if let Ok(bytes) = frame.expect("the stream's body").into_data() {
                        self.buffer.push_str(std::str::from_utf8(&bytes).unwrap());
                    }
                }
            }
        }
    }

    async fn take(&mut self, n: usize) -> Vec<Sent> {
        let mut sent = Vec::new();
        for _ in 0..n {
            sent.push(self.next().await.expect("the stream goes on"));
        }
        sent
    }
}

#[sqlx::test]
async fn the_stream_sends_each_event_with_its_seq_as_id(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("auth", "a").await.expect(201, None);
    t.create("billing", "b").await.expect(201, None);
    let page = t.api.get(&t.url("/events?after=0&limit=500"), &t.coord).await;
    let items = page.expect(200, None)["items"].as_array().unwrap().clone();
    let mut stream = EventStream::open(&t.api, &t.url("/events/stream?after=0"), &t.coord, &[]).await;
    let sent = stream.take(items.len()).await;
    for (sent, item) in sent.iter().zip(&items) {
        assert_eq!(sent.id, item["seq"].as_i64().unwrap());
        assert_eq!(sent.event, item["type"].as_str().unwrap());
        assert_eq!(&sent.data, item, "the data is the event as the page shows it");
    }
    assert!(sent.windows(2).all(|w| w[0].id < w[1].id), "ids increase");
    assert_eq!(sent.last().unwrap().event, "artifact.created");
}

#[sqlx::test]
async fn the_stream_resumes_after_last_event_id_and_delivers_new_events(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let last = last_seq(&t).await;
    // Last-Event-ID (what an EventSource sends when it reconnects) wins over `after`.
    let resume = (last - 2).to_string();
    let headers = [("last-event-id", resume.as_str())];
    let mut stream = EventStream::open(&t.api, &t.url("/events/stream?after=0"), &t.coord, &headers).await;
    let sent = stream.take(2).await;
    assert_eq!(sent.iter().map(|s| s.id).collect::<Vec<_>>(), [last - 1, last], "no repeat, no gap");
    // Then the stream waits, and delivers an event written while it waits.
    let started = Instant::now();
    let (next, created) = tokio::join!(stream.next(), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        t.create("auth", "a").await
    });
    created.expect(201, None);
    let next = next.expect("the stream goes on");
    assert_eq!((next.id, next.event.as_str()), (last + 1, "artifact.created"));
    assert_eq!(next.data["artifact"], "auth");
    assert!(started.elapsed() < Duration::from_secs(8), "woken, not found by the fallback re-read");
}

#[sqlx::test]
async fn a_stream_opened_without_a_start_sends_only_new_events(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let last = last_seq(&t).await;
    let mut stream = EventStream::open(&t.api, &t.url("/events/stream"), &t.coord, &[]).await;
    t.create("auth", "a").await.expect(201, None);
    t.create("billing", "b").await.expect(201, None);
    let sent = stream.take(2).await;
    assert_eq!(sent.iter().map(|s| s.id).collect::<Vec<_>>(), [last + 1, last + 2]);
    assert_eq!(sent[1].data["artifact"], "billing");
    // An empty Last-Event-ID is no id: the same as none.
    let mut stream =
        EventStream::open(&t.api, &t.url("/events/stream"), &t.coord, &[("last-event-id", "")]).await;
    t.create("checkout", "a").await.expect(201, None);
    assert_eq!(stream.next().await.expect("an event").id, last + 3);
}

#[sqlx::test]
async fn the_stream_refuses_before_it_starts(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let api = &t.api;
    get_with(api, "/v1/teams/nowhere/events/stream", ADMIN, &[]).await.expect(404, Some("not_found"));
    get_with(api, &t.url("/events/stream"), "rl_not-a-token", &[]).await.expect(401, Some("unauthenticated"));
    api.team("other", Value::Null).await;
    let other = api.token("other", "read").await;
    get_with(api, &t.url("/events/stream"), &other, &[]).await.expect(404, Some("not_found"));
    let bad = get_with(api, &t.url("/events/stream"), &t.coord, &[("last-event-id", "seven")]).await;
    assert_eq!(bad.expect(422, Some("invalid_field"))["errors"][0]["field"], "Last-Event-ID");
    let bad = get_with(api, &t.url("/events/stream"), &t.coord, &[("last-event-id", "-3")]).await;
    assert_eq!(bad.expect(422, Some("invalid_field"))["errors"][0]["field"], "Last-Event-ID");
    let negative = get_with(api, &t.url("/events/stream?after=-1"), &t.coord, &[]).await;
    assert_eq!(negative.expect(422, Some("invalid_field"))["errors"][0]["field"], "after");
}

#[sqlx::test]
async fn a_stream_ends_when_its_token_is_revoked(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let created = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "dashboard", "scope": "read" })).await;
    let created = created.expect(201, None);
    let (id, secret) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    let mut stream = EventStream::open(&t.api, &t.url("/events/stream"), secret, &[]).await;
    t.create("auth", "a").await.expect(201, None);
    assert_eq!(stream.next().await.expect("an event").event, "artifact.created");
    let (end, ()) = tokio::join!(stream.next(), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        t.api.delete(&t.url(&format!("/tokens/{id}")), ADMIN).await.expect(204, None);
        t.create("billing", "b").await.expect(201, None);
    });
    assert!(end.is_none(), "the stream ends at its token's revocation, sending nothing after: {end:?}");
}

#[sqlx::test]
async fn a_stream_sees_every_event_of_concurrent_writers_once_in_order(pool: PgPool) {
    const WRITERS: usize = 3;
    const ARTIFACTS: usize = 5;
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let last = last_seq(&t).await;
    let mut stream = EventStream::open(&t.api, &t.url("/events/stream"), &t.coord, &[]).await;
    let writers = futures_util::future::join_all((0..WRITERS).map(|w| {
        let t = &t;
        async move {
            for i in 0..ARTIFACTS {
                t.create(&format!("w{w}-{i}"), ["a", "b", "c"][w]).await.expect(201, None);
            }
        }
    }));
    let (sent, _) = tokio::join!(stream.take(WRITERS * ARTIFACTS), writers);
    let ids: Vec<i64> = sent.iter().map(|s| s.id).collect();
    let expected: Vec<i64> = (last + 1..=last + (WRITERS * ARTIFACTS) as i64).collect();
    assert_eq!(ids, expected, "every event once, in seq order");
    let mut keys: Vec<&str> = sent.iter().map(|s| s.data["artifact"].as_str().unwrap()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), WRITERS * ARTIFACTS);
}

#[sqlx::test]
async fn closing_the_feed_ends_streams_and_long_polls_at_once(pool: PgPool) {
    // What `serve` does at shutdown, so draining does not wait for them.
    let (api, state) = api_with(pool, |_| {});
    api.team("t", Value::Null).await;
    let token = api.token("t", "read").await;
    let last = api.get("/v1/teams/t/events?limit=500", &token).await.ok()["next_after"].as_i64().unwrap();
    let mut stream = EventStream::open(&api, "/v1/teams/t/events/stream", &token, &[]).await;
    let path = format!("/v1/teams/t/events?after={last}&wait=30");
    let started = Instant::now();
    let (end, poll, ()) = tokio::join!(stream.next(), api.get(&path, &token), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        state.feed.close();
    });
    assert!(end.is_none(), "the stream ended: {end:?}");
    assert_eq!(poll.expect(200, None)["items"], json!([]), "the long poll answered, empty");
    assert!(started.elapsed() < Duration::from_secs(8));
}

// --- hubs: one read per team ----------------------------------------------------------------

/// Waits until the feed's listener has a `LISTEN` connection other than `not` (a pid); at most
/// 10 s. Returns its pid.
async fn listening(pool: &PgPool, not: Option<i32>) -> i32 {
    for _ in 0..200 {
        let pid: Option<i32> = sqlx::query_scalar(
            "select pid from pg_stat_activity
             where datname = current_database() and query like 'LISTEN%' and pid <> coalesce($1, 0)",
        )
        .bind(not)
        .fetch_optional(pool)
        .await
        .unwrap();
        if let Some(pid) = pid {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the listener never connected");
}

/// Waits until `n` long polls or streams wait on the feed; at most 60 s.
async fn waiting(state: &AppState, n: usize) {
    let started = Instant::now();
    while state.feed.waiters() < n {
        assert!(started.elapsed() < Duration::from_secs(60), "{} of {n} waiting", state.feed.waiters());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Each has read its first page: the pool is quiet.
    tokio::time::sleep(Duration::from_millis(500)).await;
}

#[sqlx::test]
async fn a_teams_waiters_cost_one_read_per_wake_up_and_other_teams_cost_them_nothing(pool: PgPool) {
    const WAITERS: usize = 3000;
    const OTHER_WRITES: usize = 20;
    let (api, state) = api_with(pool, |_| {});
    api.team("a", Value::Null).await;
    api.team("b", Value::Null).await;
    let token = api.token("a", "read").await;
    let last = api.get("/v1/teams/a/events?limit=500", &token).await.ok()["next_after"].as_i64().unwrap();
    state.feed.start();
    let listener = listening(&api.pool, None).await;

    let path = format!("/v1/teams/a/events?after={last}&wait=60");
    let pollers = futures_util::future::join_all((0..WAITERS).map(|_| api.get(&path, &token)));
    let scenario = async {
        waiting(&state, WAITERS).await;
        let (reads, wakeups) = (state.feed.reads(), state.feed.wakeups());
        for i in 0..OTHER_WRITES {
            api.agent("b", &format!("x{i}"), json!({ "roles": ["engineer"] })).await;
        }
        // Time for the notifications to arrive (they would wake A's waiters now, if ever).
        tokio::time::sleep(Duration::from_millis(500)).await;
        let other = (state.feed.reads() - reads, state.feed.wakeups() - wakeups);
        eprintln!(
            "hostile load: {WAITERS} idle long polls on team A: {OTHER_WRITES} writes of team B cause {} reads of the log, \
             {} wake-ups of A's waiters",
            other.0, other.1
        );

        // The listener loses its connection: notifications may have been lost, so every team
        // with waiters reads its log again, once.
        let reads = state.feed.reads();
        sqlx::query("select pg_terminate_backend($1)").bind(listener).execute(&api.pool).await.unwrap();
        listening(&api.pool, Some(listener)).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let reconnect = state.feed.reads() - reads;
        eprintln!(
            "hostile load: {WAITERS} idle long polls on team A: the listener's reconnection costs {reconnect} reads"
        );

        let (reads, wakeups) = (state.feed.reads(), state.feed.wakeups());
        api.agent("a", "new", json!({ "roles": ["engineer"] })).await;
        (other, reconnect, (reads, wakeups))
    };
    let (polls, (other, reconnect, (reads, wakeups))) = tokio::join!(pollers, scenario);
    let own = (state.feed.reads() - reads, state.feed.wakeups() - wakeups);
    eprintln!(
        "hostile load: {WAITERS} long polls on team A: one event of A costs {} reads of the log, {} wake-ups",
        own.0, own.1
    );
    for poll in &polls {
        assert_eq!(seqs(poll.expect(200, None)), [last + 1], "every poller answered with A's event");
    }
    assert_eq!(other, (0, 0), "team B's events cost A's waiters nothing");
    assert!(reconnect <= 1, "one read for the team after a reconnection, not one per waiter: {reconnect}");
    assert!(own.0 <= 1, "one read for the team's event, not one per waiter: {}", own.0);
    assert!(own.1 <= WAITERS as u64, "each waiter woke once: {}", own.1);
}

#[sqlx::test]
async fn a_team_has_a_hub_only_while_it_has_waiters(pool: PgPool) {
    let (api, state) = api_with(pool, |_| {});
    api.team("t", Value::Null).await;
    let token = api.token("t", "read").await;
    assert_eq!(state.feed.teams(), 0);
    let stream = EventStream::open(&api, "/v1/teams/t/events/stream", &token, &[]).await;
    assert_eq!((state.feed.teams(), state.feed.waiters()), (1, 1));
    api.get("/v1/teams/t/events?wait=1&after=1000", &token).await.expect(200, None);
    assert_eq!((state.feed.teams(), state.feed.waiters()), (1, 1), "the poll's place went with it");
    drop(stream);
    assert_eq!((state.feed.teams(), state.feed.waiters()), (0, 0), "the last waiter took its team's hub");
}

#[sqlx::test]
async fn a_stream_further_behind_than_its_hub_keeps_reads_for_itself(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let first = last_seq(&t).await;
    // A live stream keeps the team's hub; another starts from the beginning of the log.
    let mut live = EventStream::open(&t.api, &t.url("/events/stream"), &t.coord, &[]).await;
    let writes = 300;
    for i in 0..writes {
        t.api.agent("t", &format!("x{i}"), json!({ "roles": ["engineer"] })).await;
    }
    let sent = live.take(writes).await;
    assert_eq!(sent.last().unwrap().id, first + writes as i64);
    let mut behind = EventStream::open(&t.api, &t.url("/events/stream?after=0"), &t.coord, &[]).await;
    let all = behind.take(first as usize + writes).await;
    let ids: Vec<i64> = all.iter().map(|s| s.id).collect();
    assert_eq!(ids, (1..=first + writes as i64).collect::<Vec<_>>(), "every event once, in order");
}

// --- revoked tokens -------------------------------------------------------------------------

#[sqlx::test]
async fn a_long_poll_whose_token_is_revoked_answers_401(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let created = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "dashboard", "scope": "read" })).await;
    let created = created.expect(201, None);
    let (id, secret) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    let last = last_seq(&t).await;
    let path = t.url(&format!("/events?after={last}&wait=10"));
    let (poll, ()) = tokio::join!(t.api.get(&path, secret), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        t.api.delete(&t.url(&format!("/tokens/{id}")), ADMIN).await.expect(204, None);
        t.create("billing", "b").await.expect(201, None);
    });
    eprintln!(
        "hostile load: a long poll whose token is revoked while it waits answers {}: {}",
        poll.status, poll.body
    );
    poll.expect(401, Some("unauthenticated"));
}
