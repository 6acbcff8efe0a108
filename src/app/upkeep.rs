//! Background work of a serving process.

use std::time::Duration;

use crate::store::{Db, idempotency};

/// Deletes expired idempotency keys every ten minutes; a key expires 24 hours after its request.
pub async fn purge_idempotency_keys(db: Db) {
    let mut every = tokio::time::interval(Duration::from_secs(600));
    loop {
        every.tick().await;
        let purged = async { idempotency::purge_expired(&mut *db.acquire().await?).await };
        match purged.await {
            Ok(0) => {}
            Ok(n) => tracing::info!(purged = n, "purged expired idempotency keys"),
            Err(e) => tracing::warn!(error = %e, "purging expired idempotency keys failed; will retry"),
        }
    }
}
