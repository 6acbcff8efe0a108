//! sqlx: rows, queries and the event log. Functions take a connection, so the caller decides
//! the transaction; nothing here decides a rule.

pub mod agents;
pub mod artifacts;
pub mod events;
pub mod idempotency;
pub mod listener;
pub mod teams;
pub mod tokens;
mod words;

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use sqlx::pool::PoolConnection;
use sqlx::{Connection, PgConnection, PgPool, Postgres, Transaction};

use crate::PING_IDLE_AFTER;

/// Requests of this process waiting for a pooled connection: a gauge of the metrics.
static WAITING: AtomicU64 = AtomicU64::new(0);

/// How many requests of this process wait for a pooled connection now.
pub fn waiting() -> u64 {
    WAITING.load(Ordering::Relaxed)
}

/// Counts a request as waiting until it has its connection (or gave up).
struct Waiting;

impl Waiting {
    fn start() -> Waiting {
        WAITING.fetch_add(1, Ordering::Relaxed);
        Waiting
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        WAITING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The database as requests use it: the pool, and a few connections that requests' reads handed
/// back clean ([`Db::read`]), which the next requests take before the pool's.
///
/// sqlx pings every connection its pool takes back, a round trip to Postgres as costly as one
/// of a read's own statements (and so half of a `304` status read's work). A connection whose
/// every statement completed has nothing to check, so a read that ends well parks it here
/// instead; one dropped otherwise (an error, a cancelled request) goes back to the pool, ping
/// and all. At most half the pool's connections are parked, so whatever takes from the pool
/// directly (the feed, the metrics, readiness) always finds room, and a connection parked for
/// [`PING_IDLE_AFTER`] goes back to the pool, which pings it before its next use.
#[derive(Clone)]
pub struct Db {
    pool: PgPool,
    parked: Arc<Mutex<Vec<Parked>>>,
}

struct Parked {
    conn: PoolConnection<Postgres>,
    since: Instant,
}

impl Deref for Db {
    type Target = PgPool;

    fn deref(&self) -> &PgPool {
        &self.pool
    }
}

impl Db {
    /// Wraps the pool; call within the Tokio runtime.
    pub fn new(pool: PgPool) -> Db {
        let parked: Arc<Mutex<Vec<Parked>>> = Arc::default();
        // Closing the pool waits for every connection taken from it: the parked ones go back
        // as soon as it starts.
        let closed = pool.close_event();
        let unparked = Arc::downgrade(&parked);
        tokio::spawn(async move {
            closed.await;
            if let Some(parked) = unparked.upgrade() {
                let drained = std::mem::take(&mut *parked.lock().unwrap_or_else(PoisonError::into_inner));
                drop(drained);
            }
        });
        Db { pool, parked }
    }

    /// A connection for a request: a parked one if there is a fresh one, else from the pool.
    pub async fn acquire(&self) -> sqlx::Result<Conn> {
        let conn = match self.unpark() {
            Some(conn) => conn,
            None => {
                let _waiting = Waiting::start();
                self.pool.acquire().await?
            }
        };
        Ok(Conn { conn, parked: self.parked.clone(), capacity: self.capacity() })
    }

    /// Runs a request's reads on one connection of [`Db::acquire`]; when they succeed, the
    /// connection is parked for the next request rather than pinged back into the pool.
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

    /// A transaction on a connection of [`Db::acquire`] (the wait counted includes its `BEGIN`).
    /// Its connection goes back to the pool when the transaction ends.
    pub async fn begin(&self) -> sqlx::Result<Transaction<'static, Postgres>> {
        let conn = match self.unpark() {
            Some(conn) => conn,
            None => {
                let _waiting = Waiting::start();
                return self.pool.begin().await;
            }
        };
        Transaction::begin(conn, None).await
    }

    fn unpark(&self) -> Option<PoolConnection<Postgres>> {
        if self.pool.is_closed() {
            return None;
        }
        let mut parked = self.parked.lock().unwrap_or_else(PoisonError::into_inner);
        // The most recently parked first; the rest are older still, so a stale one ends the search
        // and the stale ones go back to the pool (dropped after the lock is released).
        let Parked { conn, since } = parked.pop()?;
        if since.elapsed() < PING_IDLE_AFTER {
            return Some(conn);
        }
        let stale: Vec<Parked> = std::mem::take(&mut *parked);
        drop(parked);
        drop((conn, stale));
        None
    }

    /// How many connections may be parked: half the pool.
    fn capacity(&self) -> usize {
        self.pool.options().get_max_connections() as usize / 2
    }

    /// How many connections are parked now: a gauge of the metrics.
    pub fn parked(&self) -> usize {
        self.parked.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// A connection of [`Db::acquire`]: dropped, it goes back to the pool; [`Db::read`] parks it
/// for the next request once its reads succeeded.
pub struct Conn {
    conn: PoolConnection<Postgres>,
    parked: Arc<Mutex<Vec<Parked>>>,
    capacity: usize,
}

impl Conn {
    /// Hands the connection back after its last statement completed: parked for the next
    /// request, or back to the pool when enough are parked.
    fn release(self) {
        let Conn { conn, parked, capacity } = self;
        let mut parked = parked.lock().unwrap_or_else(PoisonError::into_inner);
        if parked.len() < capacity {
            parked.push(Parked { conn, since: Instant::now() });
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
