//! sqlx: rows, queries and the event log. Functions take a connection, so the caller decides
//! the transaction; nothing here decides a rule.

pub mod agents;
pub mod artifacts;
pub mod events;
pub mod idempotency;
pub mod listener;
pub mod operations;
pub mod ref_checks;
pub mod targets;
pub mod teams;
pub mod tokens;
mod words;

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use sqlx::pool::PoolConnection;
use sqlx::{Connection, PgConnection, PgPool, Postgres, Transaction};

/// The migrations, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// A pooled connection idle for longer than this is pinged before a request uses it.
pub const PING_IDLE_AFTER: Duration = Duration::from_secs(5);

/// The database as this process uses it: the pool, a few connections that requests' reads
/// handed back clean ([`Db::read`]), and a count of those waiting for a connection. Everything
/// of the process takes its connections here — requests, the event feed, the metrics'
/// refresh, readiness, background upkeep — so the count is whole. Cloning shares it.
///
/// sqlx pings every connection its pool takes back, a round trip to Postgres as costly as one
/// of a read's own statements. A connection whose every statement completed has nothing to
/// check, so a read that ends well parks it here for the next request instead, but only while
/// nobody waits for a connection: one released while someone waits goes back to the pool,
/// which hands it to the waiter. The parked list and the count of waiters share one lock, and a
/// request registers as waiting (under it) only after finding nothing parked, so a connection
/// is never parked while a request waits on the pool. One dropped otherwise (an error, a
/// cancelled request) goes back to the pool, ping and all; one parked for [`PING_IDLE_AFTER`]
/// goes back to the pool, which pings it before its next use.
#[derive(Clone)]
pub struct Db {
    pool: PgPool,
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Shared {
    /// The most recently parked last.
    parked: Vec<Parked>,
    /// Callers waiting for a connection from the pool.
    waiting: u64,
    /// The pool is closing: nothing is parked any more.
    closing: bool,
}

struct Parked {
    conn: PoolConnection<Postgres>,
    since: Instant,
}

impl Db {
    /// Wraps the pool; call within the Tokio runtime.
    pub fn new(pool: PgPool) -> Db {
        let shared: Arc<Mutex<Shared>> = Arc::default();
        // Closing the pool waits for every connection taken from it: the parked ones go back
        // as soon as it starts.
        let closed = pool.close_event();
        let unparked = Arc::downgrade(&shared);
        tokio::spawn(async move {
            closed.await;
            if let Some(shared) = unparked.upgrade() {
                let drained = {
                    let mut shared = lock(&shared);
                    shared.closing = true;
                    std::mem::take(&mut shared.parked)
                };
                drop(drained);
            }
        });
        Db { pool, shared }
    }

    /// A connection for a request: a parked one if there is a fresh one, else from the pool
    /// (counted as waiting meanwhile).
    pub async fn acquire(&self) -> sqlx::Result<Conn> {
        let conn = match self.unpark_or_wait() {
            Ok(conn) => conn,
            Err(waiting) => {
                let conn = self.pool.acquire().await;
                drop(waiting);
                conn?
            }
        };
        Ok(Conn { conn, shared: self.shared.clone() })
    }

    /// Runs a request's reads on one connection of [`Db::acquire`]; when they succeed, the
    /// connection is parked for the next request, unless someone waits for one.
    pub async fn read<T, E: From<sqlx::Error>>(
        &self,
        read: impl AsyncFnOnce(&mut PgConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.acquire().await?;
        let result = read(&mut conn).await;
        if result.is_ok() {
            conn.release();
        }
        result
    }

    /// As [`Db::read`], inside one `REPEATABLE READ READ ONLY` transaction: every statement of
    /// `read` sees the same snapshot, so a response assembled from several of them holds
    /// together. A read that one statement answers needs none of this (a statement is a snapshot).
    pub async fn snapshot<T, E: From<sqlx::Error>>(
        &self,
        read: impl AsyncFnOnce(&mut PgConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.read(async |conn| {
            let mut tx = conn.begin_with("begin isolation level repeatable read read only").await?;
            let result = read(&mut tx).await;
            match result {
                Ok(_) => tx.commit().await?,
                Err(_) => tx.rollback().await?,
            }
            result
        })
        .await
    }

    /// A transaction on a parked connection, or on one from the pool (counted as waiting
    /// until its `BEGIN` completes). Its connection goes back to the pool when it ends.
    pub async fn begin(&self) -> sqlx::Result<Transaction<'static, Postgres>> {
        match self.unpark_or_wait() {
            Ok(conn) => Transaction::begin(conn, None).await,
            Err(_waiting) => self.pool.begin().await,
        }
    }

    /// For what must take its connection from the pool itself (the event listener's
    /// `PgListener`): the parked connections go back to the pool first, and the caller counts
    /// as waiting until `take` completes.
    pub async fn from_pool<T>(&self, take: impl AsyncFnOnce(&PgPool) -> T) -> T {
        let parked = {
            let mut shared = lock(&self.shared);
            shared.waiting += 1;
            std::mem::take(&mut shared.parked)
        };
        let _waiting = Waiting(&self.shared);
        drop(parked);
        take(&self.pool).await
    }

    /// A fresh parked connection; else the caller is registered as waiting, under the same
    /// lock, until the returned guard drops.
    fn unpark_or_wait(&self) -> Result<PoolConnection<Postgres>, Waiting<'_>> {
        let mut shared = lock(&self.shared);
        // The most recently parked first; the rest are older still, so a stale one ends the
        // search and the stale ones go back to the pool (dropped after the lock is released).
        let stale = match shared.parked.pop() {
            Some(Parked { conn, since }) if since.elapsed() < PING_IDLE_AFTER => {
                return Ok(conn);
            }
            Some(stale) => {
                let mut stale = vec![stale];
                stale.append(&mut shared.parked);
                stale
            }
            None => Vec::new(),
        };
        shared.waiting += 1;
        drop(shared);
        drop(stale);
        Err(Waiting(&self.shared))
    }

    /// How many callers wait for a connection from the pool now: a gauge of the metrics.
    pub fn waiting(&self) -> u64 {
        lock(&self.shared).waiting
    }

    /// How many connections are parked now.
    pub fn parked(&self) -> usize {
        lock(&self.shared).parked.len()
    }

    /// Connections the pool holds open, in use or not.
    pub fn size(&self) -> u32 {
        self.pool.size()
    }

    /// Open connections not in use: idle in the pool, or parked.
    pub fn idle(&self) -> usize {
        self.pool.num_idle() + self.parked()
    }

    /// The most connections the pool may open.
    pub fn max_connections(&self) -> u32 {
        self.pool.options().get_max_connections()
    }

    pub fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    /// Closes the pool, waiting for the connections in use to come back (the parked ones go
    /// back at once).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One caller counted as waiting for a connection from the pool, until dropped (it got one,
/// or gave up).
struct Waiting<'a>(&'a Mutex<Shared>);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        lock(self.0).waiting -= 1;
    }
}

/// A connection of [`Db::acquire`]: dropped, it goes back to the pool; [`Db::read`] parks it
/// for the next request once its reads succeeded.
pub struct Conn {
    conn: PoolConnection<Postgres>,
    shared: Arc<Mutex<Shared>>,
}

impl Conn {
    /// Hands the connection back after its last statement completed: parked for the next
    /// request while nobody waits (and the pool is open), else back to the pool for a waiter.
    fn release(self) {
        let Conn { conn, shared } = self;
        let mut shared = lock(&shared);
        if shared.waiting == 0 && !shared.closing {
            shared.parked.push(Parked { conn, since: Instant::now() });
        } else {
            drop(shared);
            drop(conn);
        }
    }
}

impl Deref for Conn {
    type Target = PgConnection;

    fn deref(&self) -> &PgConnection {
        &self.conn
    }
}

impl DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.conn
    }
}
