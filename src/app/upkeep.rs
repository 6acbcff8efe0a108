//! Background work of a serving process.

use std::time::Duration;

use crate::store::{Db, idempotency, targets};

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

/// Deletes delivery attempts older than 30 days, every hour.
pub async fn purge_delivery_log(db: Db) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        let purged = async { targets::purge_attempts(&mut *db.acquire().await?).await };
        match purged.await {
            Ok(0) => {}
            Ok(n) => tracing::info!(purged = n, "purged delivery attempts older than 30 days"),
            Err(e) => tracing::warn!(error = %e, "purging the delivery log failed; will retry"),
        }
    }
}
