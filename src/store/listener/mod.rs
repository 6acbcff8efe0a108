//! The one Postgres `LISTEN` of a process, and a hub per team that long polls and event streams
//! (`app::events`) wait on: a team's event costs one read of its log, however many wait on it.
//!
//! Every event is appended with `pg_notify('reviewlock_events', '<team id> <seq>')` in its transaction,
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

mod hub;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, PoisonError};
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::watch;

use self::hub::{Hub, follow};
pub use self::hub::{Next, Waiter};
use crate::store::Db;
use crate::store::events::{self, CHANNEL};

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

/// What hears of every team's events besides the hubs (the lockout index of `app::index`): told
/// of each notification, and of the listener starting and stopping to listen, since
/// notifications sent while nobody listens are lost.
pub trait Follower: Send + Sync {
    /// A notification for `team`: its event `seq` committed (`None`: an event, from a replica
    /// that does not say which).
    fn notified(&self, team: &str, seq: Option<i64>);
    /// `true`: the listener listens (again); what was sent before is unknown. `false`: it
    /// lost its connection; notifications are lost until it listens again.
    fn listening(&self, listening: bool);
}

/// What the listener, the hubs' tasks and the waiters share.
struct Shared {
    db: Db,
    hubs: Mutex<Hubs>,
    /// See [`Follower`].
    followers: Mutex<Vec<Arc<dyn Follower>>>,
    /// See [`Feed::reads`].
    reads: AtomicU64,
    /// See [`Feed::wakeups`].
    wakeups: AtomicU64,
    /// See [`Feed::activity`].
    activity: Arc<tokio::sync::Notify>,
}

/// The teams with waiters: each one's hub and how many wait on it.
type Hubs = HashMap<Arc<str>, (Arc<Hub>, usize)>;

impl Feed {
    /// A feed on the pool's database. Nothing connects until [`Feed::start`].
    pub fn new(db: Db) -> Self {
        let shared = Shared {
            db,
            hubs: Mutex::default(),
            followers: Mutex::default(),
            reads: AtomicU64::new(0),
            wakeups: AtomicU64::new(0),
            activity: Arc::default(),
        };
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

    /// Tells `follower` of every notification of every team from now on, and of the listener
    /// listening or not (it hears nothing until [`Feed::start`]).
    pub fn follow_all(&self, follower: Arc<dyn Follower>) {
        lock(&self.0.shared.followers).push(follower);
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
                let hub = Arc::new(Hub::new(team.clone()));
                tokio::spawn(follow(shared.clone(), hub.clone(), self.0.closed.subscribe()));
                hubs.insert(team, (hub.clone(), 1));
                hub
            }
        };
        drop(hubs);
        Waiter::new(shared.clone(), hub, self.0.closed.subscribe())
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

    /// Notified (one permit kept) at every event of any team this process hears of, and when
    /// the listener (re)connects: what the delivery workers wait on.
    pub fn activity(&self) -> Arc<tokio::sync::Notify> {
        self.0.shared.activity.clone()
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
    fn followers(&self) -> Vec<Arc<dyn Follower>> {
        lock(&self.followers).clone()
    }

    /// Wakes the team's hub, if the team has waiters.
    fn wake(&self, team: &str) {
        self.activity.notify_one();
        if let Some((hub, _)) = lock(&self.hubs).get(team) {
            hub.wake();
        }
    }

    fn wake_all(&self) {
        self.activity.notify_one();
        lock(&self.hubs).values().for_each(|(hub, _)| hub.wake());
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
            () = closing(&mut closed) => {
                shared.followers().iter().for_each(|f| f.listening(false));
                return;
            }
        };
        shared.followers().iter().for_each(|f| f.listening(false));
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
    shared.followers().iter().for_each(|f| f.listening(true));
    shared.wake_all();
    *backoff = Duration::from_millis(250);
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => {
                let (team, seq) = events::notification(notification.payload());
                // Under the lock: a short list, and a follower only records and wakes.
                for follower in lock(&shared.followers).iter() {
                    follower.notified(team, seq);
                }
                shared.wake(team);
            }
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
