//! sqlx: rows, queries and the event log. Functions take a connection, so the caller decides
//! the transaction; nothing here decides a rule.

pub mod agents;
pub mod artifacts;
pub mod events;
pub mod idempotency;
pub mod teams;
pub mod tokens;

use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::pool::PoolConnection;
use sqlx::{PgPool, Postgres, Transaction};

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

/// A connection from the pool; every request takes its connection here or in [`begin`].
pub async fn acquire(pool: &PgPool) -> sqlx::Result<PoolConnection<Postgres>> {
    let _waiting = Waiting::start();
    pool.acquire().await
}

/// A transaction on a connection from the pool (the wait counted includes its `BEGIN`).
pub async fn begin(pool: &PgPool) -> sqlx::Result<Transaction<'static, Postgres>> {
    let _waiting = Waiting::start();
    pool.begin().await
}
