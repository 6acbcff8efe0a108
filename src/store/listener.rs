//! The one Postgres `LISTEN` of a process, and a hub per team that long polls and event streams
//! (`app::events`) wait on: a team's event costs one read of its log, however many wait on it.
//!
//! Every event is appended with `pg_notify('reviewlock_events', <team id>)` in its transaction,
//! so the notification is delivered at commit, when the event is visible. [`Feed`] holds one
//! listening connection and hands each notification to its team's [`Hub`], if the team has
//! waiters; other teams' events cost a waiter nothing. A hub exists while its team has waiters:
//! created by the first [`Feed::subscribe`], removed when its last [`Waiter`] drops. On a
//! wake-up its task reads the events after the last seq it knows, once, keeps the latest
//! [`RECENT`] of them, and publishes them to its waiters, who serve their pages from it; a waiter
//! further behind than that reads for itself. A waiter subscribes *before* it reads the log and
//! tells the hub the seq its read saw ([`Waiter::seen`]), so an event committed after that read
//! still reaches it. When the listener (re)connects it wakes every hub, since notifications sent
//! while it was not listening are lost; and each hub reads again at least every [`FALLBACK`]
//! anyway, one query per team, so a feed makes progress even while the listener cannot connect.

use std::collections::{HashMap, VecDeque};
use std::future::pending;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, PoisonError};
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

use crate::store::events::{self, EventRow};
use crate::store::{Db, teams};

/// The channel `events::append` notifies, with the team id as payload.
pub const CHANNEL: &str = "reviewlock_events";

/// A hub reads its team's log at least this often, even without a wake-up.
pub const FALLBACK: Duration = Duration::from_secs(15);

/// The recent events a hub keeps for its waiters, and the most it reads at once.
pub const RECENT: usize = 256;

/// The process's one listener and the hubs of the teams that have waiters. Cloning shares it.
/// The listener starts with the first [`Feed::subscribe`] (or [`Feed::start`]) and stops when
/// every clone is dropped or the feed closes.
#[derive(Clone)]
pub struct Feed(Arc<Inner>);

struct Inner {
    shared: Arc<Shared>,
    closed: watch::Sender<bool>,
    started: Once,
}

/// What the listener, the hubs' tasks and the waiters share.
struct Shared {
    db: Db,
    hubs: Mutex<Hubs>,
    /// See [`Feed::reads`].
    reads: AtomicU64,
    /// See [`Feed::wakeups`].
    wakeups: AtomicU64,
}

/// The teams with waiters: each one's hub and how many wait on it.
type Hubs = HashMap<Arc<str>, (Arc<Hub>, usize)>;

/// One team's waiters: woken by the listener, read for by its task.
struct Hub {
    team: Arc<str>,
    /// The listener's wake-ups for the task; one stored while it reads is not lost.
    wake: Notify,
    /// Its last waiter has gone: the task ends.
    retired: AtomicBool,
    /// What the task knows of the log, for the waiters (one receiver each).
    recent: watch::Sender<Recent>,
}

impl Feed {
    /// A feed on the pool's database. Nothing connects until [`Feed::start`].
    pub fn new(db: Db) -> Self {
        let shared =
            Shared { db, hubs: Mutex::default(), reads: AtomicU64::new(0), wakeups: AtomicU64::new(0) };
        Feed(Arc::new(Inner {
            shared: Arc::new(shared),
            closed: watch::channel(false).0,
            started: Once::new(),
        }))
    }

    /// Starts the listener, once; it holds one connection of the pool. Needs a Tokio runtime.
    pub fn start(&self) {
        self.0.started.call_once(|| {
            tokio::spawn(listen(self.0.shared.clone(), self.0.closed.subscribe()));
        });
    }

    /// Ends every stream and long poll (they answer what they have), for a graceful shutdown.
    pub fn close(&self) {
        self.0.closed.send_replace(true);
    }

    /// A waiter on the team's log, from now on. Subscribe before reading the log.
    pub fn subscribe(&self, team: &str) -> Waiter {
        self.start();
        let shared = &self.0.shared;
        let mut hubs = lock(&shared.hubs);
        let hub = match hubs.get_mut(team) {
            Some((hub, waiters)) => {
                *waiters += 1;
                hub.clone()
            }
            None => {
                let team: Arc<str> = team.into();
                let hub = Arc::new(Hub {
                    team: team.clone(),
                    wake: Notify::new(),
                    retired: AtomicBool::new(false),
                    recent: watch::channel(Recent::default()).0,
                });
                tokio::spawn(follow(shared.clone(), hub.clone(), self.0.closed.subscribe()));
                hubs.insert(team, (hub.clone(), 1));
                hub
            }
        };
        drop(hubs);
        let recent = hub.recent.subscribe();
        Waiter { shared: shared.clone(), hub, recent, closed: self.0.closed.subscribe() }
    }

    /// How many times the log has been read for waiters, after the read each makes when it
    /// starts: once per team per wake-up or [`FALLBACK`] (by the team's hub), plus once per
    /// wake-up of a waiter further behind than the hub's recent events. What idle and busy
    /// waiters cost the database.
    pub fn reads(&self) -> u64 {
        self.0.shared.reads.load(Ordering::Relaxed)
    }

    /// How many times a waiter was woken because its team's hub learned of new events.
    pub fn wakeups(&self) -> u64 {
        self.0.shared.wakeups.load(Ordering::Relaxed)
    }

    /// How many teams have waiters (and so a hub) now.
    pub fn teams(&self) -> usize {
        lock(&self.0.shared.hubs).len()
    }

    /// How many long polls and streams wait now, all teams together.
    pub fn waiters(&self) -> usize {
        lock(&self.0.shared.hubs).values().map(|(_, waiters)| waiters).sum()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Wakes the team's hub, if the team has waiters.
    fn wake(&self, team: &str) {
        if let Some((hub, _)) = lock(&self.hubs).get(team) {
            hub.wake.notify_one();
        }
    }

    fn wake_all(&self) {
        lock(&self.hubs).values().for_each(|(hub, _)| hub.wake.notify_one());
    }

    fn count_read(&self) {
        self.reads.fetch_add(1, Ordering::Relaxed);
    }
}

/// Listens on [`CHANNEL`] and wakes the notified teams' hubs, reconnecting with backoff.
async fn listen(shared: Arc<Shared>, mut closed: watch::Receiver<bool>) {
    let mut backoff = Duration::from_millis(250);
    loop {
        let error = tokio::select! {
            e = listen_once(&shared, &mut backoff) => e,
            () = closing(&mut closed) => return,
        };
        if shared.db.is_closed() {
            return;
        }
        tracing::warn!(error = %error, retry_in = ?backoff, "the event listener lost its connection");
        // Hubs fall back to reading every FALLBACK meanwhile.
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = closing(&mut closed) => return,
        }
        backoff = (backoff * 2).min(Duration::from_secs(10));
    }
}

/// One connection's worth of listening: returns only with the error that ended it.
async fn listen_once(shared: &Shared, backoff: &mut Duration) -> sqlx::Error {
    let connected = shared.db.from_pool(async |pool| PgListener::connect_with(pool).await).await;
    let mut listener = match connected {
        Ok(listener) => listener,
        Err(e) => return e,
    };
    // A lost connection ends this function, so that the next is taken through `Db` (counted).
    listener.eager_reconnect(false);
    if let Err(e) = listener.listen(CHANNEL).await {
        return e;
    }
    tracing::debug!(channel = CHANNEL, "listening for events");
    // Whatever committed while nobody listened was not announced.
    shared.wake_all();
    *backoff = Duration::from_millis(250);
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => shared.wake(notification.payload()),
            Ok(None) => {
                return sqlx::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::ConnectionAborted,
                    "the listening connection was lost",
                ));
            }
            Err(e) => return e,
        }
    }
}

/// Completes when the feed closes or is dropped.
async fn closing(closed: &mut watch::Receiver<bool>) {
    // The guard it returns is not `Send`: drop it at once.
    let _ = closed.wait_for(|c| *c).await;
}

/// A hub's task: reads the team's log on each wake-up and every [`FALLBACK`], until the team's
/// last waiter goes or the feed closes.
async fn follow(shared: Arc<Shared>, hub: Arc<Hub>, mut closed: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            () = hub.wake.notified() => {}
            () = tokio::time::sleep(FALLBACK) => {}
            () = closing(&mut closed) => return,
        }
        if hub.retired.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = hub.read(&shared).await {
            tracing::warn!(error = %e, team = %hub.team, "reading the event log for its waiters failed; retrying in 1 s");
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(1)) => hub.wake.notify_one(),
                () = closing(&mut closed) => return,
            }
        }
    }
}

impl Hub {
    /// Reads the events after the last seq the hub knows (all of them, [`RECENT`] at a time)
    /// and publishes them; the waiters wake only when there is something new.
    async fn read(&self, shared: &Shared) -> sqlx::Result<()> {
        loop {
            let last = self.recent.borrow().last;
            shared.count_read();
            let Some(last) = last else {
                // No waiter has told where the log stood yet: learn it.
                let seq = shared.db.read(async |conn| teams::last_event_seq(conn, &self.team).await).await?;
                if let Some(seq) = seq {
                    self.recent.send_if_modified(|recent| recent.seen(seq));
                }
                return Ok(());
            };
            let rows = shared
                .db
                .read(async |conn| events::page(conn, &self.team, last, RECENT as i64).await)
                .await?;
            let more = rows.len() == RECENT;
            self.recent.send_if_modified(|recent| recent.push(rows));
            if !more {
                return Ok(());
            }
        }
    }
}

/// What a hub knows of its team's log: every event with a seq in `(from, last]`, in order.
#[derive(Debug, Default)]
struct Recent {
    /// The team's last seq as last read; `None` until a waiter or a read tells.
    last: Option<i64>,
    from: i64,
    events: VecDeque<EventRow>,
}

/// What [`Recent`] has for a waiter.
#[derive(Debug)]
enum Serve {
    /// The events after the waiter's seq.
    Events(Vec<EventRow>),
    /// The log has events after the waiter's seq that are no longer (or not yet) kept.
    Behind,
    /// Nothing after the waiter's seq.
    Nothing,
}

impl Recent {
    /// The log stood at `last` (read at some moment by a waiter or the hub); ignored once the
    /// hub knows where it stands. Nothing for the waiters to wake for.
    fn seen(&mut self, last: i64) -> bool {
        if self.last.is_none() {
            (self.last, self.from) = (Some(last), last);
        }
        false
    }

    /// Appends the events read after `last`, keeping the latest [`RECENT`]; true when there
    /// were any (the waiters wake).
    fn push(&mut self, rows: Vec<EventRow>) -> bool {
        let Some(new_last) = rows.last().map(|e| e.seq) else { return false };
        self.events.extend(rows);
        self.last = Some(new_last);
        while self.events.len() > RECENT {
            if let Some(dropped) = self.events.pop_front() {
                self.from = dropped.seq;
            }
        }
        true
    }

    /// At most `limit` events after `after`.
    fn after(&self, after: i64, limit: i64) -> Serve {
        match self.last {
            Some(last) if last > after && after >= self.from => {
                let start = self.events.partition_point(|e| e.seq <= after);
                Serve::Events(self.events.range(start..).take(limit.max(1) as usize).cloned().collect())
            }
            Some(last) if last > after => Serve::Behind,
            _ => Serve::Nothing,
        }
    }
}

/// Why [`Waiter::next`] returned without events.
#[derive(Debug)]
pub enum Next {
    /// At least one event after the waiter's seq, in order.
    Events(Vec<EventRow>),
    /// The deadline passed.
    Deadline,
    /// The feed is closing.
    Closed,
}

/// One long poll's or stream's place at its team's hub. Dropping the team's last waiter
/// removes the hub.
pub struct Waiter {
    shared: Arc<Shared>,
    hub: Arc<Hub>,
    recent: watch::Receiver<Recent>,
    closed: watch::Receiver<bool>,
}

impl Waiter {
    /// Tells the hub the team's last seq as the waiter's first read saw it, so the hub needs
    /// no read of its own to know where to continue.
    pub fn seen(&self, last: i64) {
        self.hub.recent.send_if_modified(|recent| recent.seen(last));
    }

    /// The team's events after `after` (at most `limit`), as soon as there is one: from the
    /// hub's recent events, or read by the waiter itself when it is further behind. Else
    /// returns at the deadline (`None`: never) or when the feed closes.
    pub async fn next(&mut self, after: i64, limit: i64, deadline: Option<Instant>) -> sqlx::Result<Next> {
        loop {
            let serve = self.recent.borrow_and_update().after(after, limit);
            match serve {
                Serve::Events(rows) => return Ok(Next::Events(rows)),
                Serve::Behind => {
                    self.shared.count_read();
                    let team = &self.hub.team;
                    let rows = self
                        .shared
                        .db
                        .read(async |conn| events::page(conn, team, after, limit).await)
                        .await?;
                    if !rows.is_empty() {
                        return Ok(Next::Events(rows));
                    }
                }
                Serve::Nothing => {}
            }
            let timer = async {
                match deadline {
                    Some(deadline) => tokio::time::sleep_until(deadline).await,
                    None => pending().await,
                }
            };
            tokio::select! {
                changed = self.recent.changed() => match changed {
                    Ok(()) => self.shared.wakeups.fetch_add(1, Ordering::Relaxed),
                    // Cannot happen: the waiter holds the hub, and so its sender.
                    Err(_) => return Ok(Next::Closed),
                },
                () = timer => return Ok(Next::Deadline),
                // Also when the feed is gone.
                () = closing(&mut self.closed) => return Ok(Next::Closed),
            };
        }
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut hubs = lock(&self.shared.hubs);
        let Some((_, waiters)) = hubs.get_mut(&self.hub.team) else { return };
        *waiters -= 1;
        // The team's last waiter: its hub goes. (Waiters are counted under the same lock, so a
        // new one either was counted here or creates a new hub.)
        if *waiters == 0 {
            hubs.remove(&self.hub.team);
            self.hub.retired.store(true, Ordering::Relaxed);
            self.hub.wake.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(seq: i64) -> EventRow {
        EventRow {
            seq,
            at: chrono::Utc::now(),
            artifact: None,
            kind: crate::resources::events::EVENT_TYPES[0].into(),
            actor: None,
            token_id: None,
            token_name: None,
            data: sqlx::types::Json(serde_json::value::RawValue::from_string("{}".into()).unwrap()),
        }
    }

    fn seqs(serve: Serve) -> Vec<i64> {
        match serve {
            Serve::Events(rows) => rows.iter().map(|e| e.seq).collect(),
            other => panic!("expected events, got {other:?}"),
        }
    }

    #[test]
    fn a_hub_serves_what_it_read_after_the_seq_a_waiter_saw() {
        let mut recent = Recent::default();
        assert!(matches!(recent.after(0, 10), Serve::Nothing), "nothing known yet");
        assert!(!recent.seen(5), "seeing the log wakes nobody");
        assert!(!recent.seen(3) && recent.last == Some(5), "the first to see it wins");
        assert!(matches!(recent.after(5, 10), Serve::Nothing));
        assert!(matches!(recent.after(9, 10), Serve::Nothing), "a waiter ahead of the log waits");
        assert!(!recent.push(Vec::new()), "an empty read wakes nobody");
        assert!(recent.push((6..=8).map(event).collect()));
        assert_eq!(seqs(recent.after(5, 10)), [6, 7, 8]);
        assert_eq!(seqs(recent.after(6, 1)), [7], "at most `limit`");
        assert!(matches!(recent.after(8, 10), Serve::Nothing));
        assert!(matches!(recent.after(4, 10), Serve::Behind), "events before what the hub read: read them");
    }

    #[test]
    fn a_hub_keeps_only_the_latest_events() {
        let mut recent = Recent::default();
        recent.seen(0);
        recent.push((1..=RECENT as i64 + 10).map(event).collect());
        assert_eq!(recent.events.len(), RECENT);
        assert_eq!(recent.from, 10);
        assert!(matches!(recent.after(9, 10), Serve::Behind));
        assert_eq!(seqs(recent.after(10, 2)), [11, 12]);
    }
}
