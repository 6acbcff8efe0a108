//! The one Postgres `LISTEN` of a process, fanned out to the long polls and event streams that
//! wait on a team's event log (`app::events`), instead of a query per waiter per second.
//!
//! Every event is appended with `pg_notify('reviewlock_events', <team id>)` in its transaction,
//! so the notification is delivered at commit, when the event is visible. [`Feed`] holds one
//! listening connection and fans each notification out on a broadcast channel; a [`Waiter`]
//! wakes only for its own team. A waiter subscribes *before* it reads the log, so an event
//! committed between its read and its wait still wakes it. When the listener (re)connects it
//! wakes every waiter, since notifications sent while it was not listening are lost; and a
//! waiter re-reads at least every [`FALLBACK`] anyway, so a feed makes progress even while the
//! listener cannot connect.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{broadcast, watch};
use tokio::time::Instant;

use crate::store::Db;

/// The channel `events::append` notifies, with the team id as payload.
pub const CHANNEL: &str = "reviewlock_events";

/// A waiter re-reads the log at least this often, even without a wake-up.
pub const FALLBACK: Duration = Duration::from_secs(15);

/// What the listener announces.
#[derive(Debug, Clone)]
enum Wake {
    /// An event of this team committed.
    Team(Arc<str>),
    /// Anything may have committed (the listener has just (re)connected): everyone re-reads.
    All,
}

/// The process's one listener and its waiters. Cloning shares it. The listener starts with the
/// first [`Feed::subscribe`] (or [`Feed::start`]) and stops when every clone is dropped or the
/// pool closes.
#[derive(Clone)]
pub struct Feed(Arc<Inner>);

struct Inner {
    pool: Db,
    wake: broadcast::Sender<Wake>,
    closed: watch::Sender<bool>,
    started: Once,
    /// Reads of the log by waiters after their first: see [`Feed::reads`].
    reads: AtomicU64,
}

impl Feed {
    /// A feed on the pool's database. Nothing connects until [`Feed::start`].
    pub fn new(pool: Db) -> Self {
        Feed(Arc::new(Inner {
            pool,
            wake: broadcast::channel(1024).0,
            closed: watch::channel(false).0,
            started: Once::new(),
            reads: AtomicU64::new(0),
        }))
    }

    /// Starts the listener, once; it holds one connection of the pool. Needs a Tokio runtime.
    pub fn start(&self) {
        self.0.started.call_once(|| {
            tokio::spawn(listen(self.0.pool.clone(), self.0.wake.clone(), self.0.closed.subscribe()));
        });
    }

    /// Ends every stream and long poll (they answer what they have), for a graceful shutdown.
    pub fn close(&self) {
        self.0.closed.send_replace(true);
    }

    /// Wake-ups for one team, from now on. Subscribe before reading the log.
    pub fn subscribe(&self, team: &str) -> Waiter {
        self.start();
        Waiter { team: team.into(), wake: self.0.wake.subscribe(), closed: self.0.closed.subscribe() }
    }

    /// How many times waiters have read the log again (after the read each makes when it
    /// starts) since the feed was created: what idle pollers cost the database.
    pub fn reads(&self) -> u64 {
        self.0.reads.load(Ordering::Relaxed)
    }

    /// Counts a read of the log by a waiter after its first (see [`Feed::reads`]).
    pub fn count_read(&self) {
        self.0.reads.fetch_add(1, Ordering::Relaxed);
    }
}

/// Listens on [`CHANNEL`] and broadcasts each notification, reconnecting with backoff.
async fn listen(pool: Db, wake: broadcast::Sender<Wake>, mut closed: watch::Receiver<bool>) {
    let mut backoff = Duration::from_millis(250);
    loop {
        let error = tokio::select! {
            Err(e) = listen_once(&pool, &wake, &mut backoff) => e,
            () = closing(&mut closed) => return,
        };
        if pool.is_closed() {
            return;
        }
        tracing::warn!(error = %error, retry_in = ?backoff, "the event listener lost its connection");
        // Waiters fall back to re-reading every FALLBACK meanwhile.
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = closing(&mut closed) => return,
        }
        backoff = (backoff * 2).min(Duration::from_secs(10));
    }
}

/// One connection's worth of listening: returns only with the error that ended it.
async fn listen_once(
    pool: &Db,
    wake: &broadcast::Sender<Wake>,
    backoff: &mut Duration,
) -> sqlx::Result<Infallible> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    tracing::debug!(channel = CHANNEL, "listening for events");
    // Whatever committed while nobody listened was not announced.
    let _ = wake.send(Wake::All);
    *backoff = Duration::from_millis(250);
    loop {
        // `None`: the connection dropped and was re-established (eager reconnect), so
        // notifications may have been lost in between.
        let next = match listener.try_recv().await? {
            Some(notification) => Wake::Team(notification.payload().into()),
            None => {
                tracing::info!("the event listener reconnected; waking every waiter");
                Wake::All
            }
        };
        // An error only means nobody is waiting.
        let _ = wake.send(next);
    }
}

/// Completes when the feed closes or is dropped.
async fn closing(closed: &mut watch::Receiver<bool>) {
    // The guard it returns is not `Send`: drop it at once.
    let _ = closed.wait_for(|c| *c).await;
}

/// Why [`Waiter::wait`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woken {
    /// The team may have a new event: read again.
    Event,
    /// [`FALLBACK`] passed without a wake-up: read again in case one was lost.
    Fallback,
    /// The deadline passed.
    Deadline,
    /// The feed is closing.
    Closed,
}

/// One team's wake-ups, for one long poll or stream.
pub struct Waiter {
    team: Arc<str>,
    wake: broadcast::Receiver<Wake>,
    closed: watch::Receiver<bool>,
}

impl Waiter {
    /// Forgets the wake-ups received so far: call it right before reading the log, which
    /// sees every event they announced.
    pub fn drain(&mut self) {
        use broadcast::error::TryRecvError;
        while let Ok(_) | Err(TryRecvError::Lagged(_)) = self.wake.try_recv() {}
    }

    /// Waits for a wake-up of this team, the deadline, or [`FALLBACK`], whichever is first.
    pub async fn wait(&mut self, deadline: Instant) -> Woken {
        use broadcast::error::RecvError;
        let fallback = Instant::now() + FALLBACK;
        let (until, timed_out) =
            if deadline <= fallback { (deadline, Woken::Deadline) } else { (fallback, Woken::Fallback) };
        let timer = tokio::time::sleep_until(until);
        tokio::pin!(timer);
        loop {
            tokio::select! {
                () = &mut timer => return timed_out,
                // Also when the feed is gone (the sender dropped).
                () = closing(&mut self.closed) => return Woken::Closed,
                wake = self.wake.recv() => match wake {
                    Ok(Wake::Team(team)) if team == self.team => return Woken::Event,
                    Ok(Wake::Team(_)) => {}
                    // Lagged: this team's wake-up may be among those skipped.
                    Ok(Wake::All) | Err(RecvError::Lagged(_)) => return Woken::Event,
                    // Cannot happen while the feed exists; wait out the timer.
                    Err(RecvError::Closed) => {
                        (&mut timer).await;
                        return timed_out;
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiter(team: &str) -> (broadcast::Sender<Wake>, watch::Sender<bool>, Waiter) {
        let (wake, closed) = (broadcast::channel(4).0, watch::channel(false).0);
        let waiter = Waiter { team: team.into(), wake: wake.subscribe(), closed: closed.subscribe() };
        (wake, closed, waiter)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(200)
    }

    #[tokio::test]
    async fn a_waiter_wakes_for_its_own_team_only() {
        let (wake, _closed, mut w) = waiter("t");
        wake.send(Wake::Team("other".into())).unwrap();
        assert_eq!(w.wait(soon()).await, Woken::Deadline, "another team's event does not wake it");
        wake.send(Wake::Team("other".into())).unwrap();
        wake.send(Wake::Team("t".into())).unwrap();
        assert_eq!(w.wait(soon()).await, Woken::Event);
    }

    #[tokio::test]
    async fn a_reconnect_or_a_lag_wakes_every_waiter() {
        let (wake, _closed, mut w) = waiter("t");
        wake.send(Wake::All).unwrap();
        assert_eq!(w.wait(soon()).await, Woken::Event);
        // More than the channel holds: the waiter lagged, and its team's event may be lost.
        for _ in 0..10 {
            wake.send(Wake::Team("other".into())).unwrap();
        }
        assert_eq!(w.wait(soon()).await, Woken::Event);
    }

    #[tokio::test]
    async fn drain_forgets_wake_ups_already_received() {
        let (wake, _closed, mut w) = waiter("t");
        for _ in 0..10 {
            wake.send(Wake::Team("t".into())).unwrap();
        }
        w.drain();
        assert_eq!(w.wait(soon()).await, Woken::Deadline);
    }

    #[tokio::test]
    async fn closing_ends_every_wait() {
        let (_wake, closed, mut w) = waiter("t");
        closed.send_replace(true);
        assert_eq!(w.wait(Instant::now() + Duration::from_secs(30)).await, Woken::Closed);
        let (_wake, closed, mut w) = waiter("t");
        drop(closed);
        assert_eq!(
            w.wait(Instant::now() + Duration::from_secs(30)).await,
            Woken::Closed,
            "nor when the feed is gone"
        );
    }
}
