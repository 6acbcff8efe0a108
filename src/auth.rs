//! Bearer tokens: their secrets, stored only as hashes, and the cache of those that
//! authenticated lately.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::store::tokens::TokenRow;

/// A new random secret: `rl_` and 64 hex digits (256 bits).
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    format!("rl_{}", hex::encode(bytes))
}

/// Secrets are stored and looked up only by their SHA-256, so a lookup compares no secret bytes.
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Tokens that authenticated lately, by secret hash, so a client's requests skip the token
/// lookup (a pooled connection and a round trip each). An entry lives `ttl`. Revoking a token
/// through this process empties the cache, so a revocation takes effect at once on the replica
/// that answered it and within `ttl` on the others; a `ttl` of zero turns the cache off. Only
/// tokens that exist are kept, so made-up secrets cannot fill it.
pub struct TokenCache {
    ttl: Duration,
    entries: Mutex<HashMap<Vec<u8>, (Instant, TokenRow)>>,
    /// Bumped by [`TokenCache::clear`]: a lookup that began before a revocation must not
    /// store what it read.
    generation: AtomicU64,
}

/// The most entries kept; past it, expired ones are dropped, then all if none were.
const TOKEN_CACHE_LIMIT: usize = 10_000;

impl TokenCache {
    pub fn new(ttl: Duration) -> Self {
        TokenCache { ttl, entries: Mutex::default(), generation: AtomicU64::new(0) }
    }

    /// The cached token of this hash, or the generation to pass to [`TokenCache::put`] after
    /// looking it up.
    pub fn get(&self, hash: &[u8]) -> Result<TokenRow, u64> {
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        match entries.get(hash) {
            Some((at, token)) if at.elapsed() < self.ttl => Ok(token.clone()),
            _ => Err(generation),
        }
    }

    /// Keeps a token looked up in the database, unless the cache was cleared since.
    pub fn put(&self, hash: Vec<u8>, token: TokenRow, generation: u64) {
        if self.ttl.is_zero() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if self.generation.load(Ordering::Acquire) != generation {
            return;
        }
        if entries.len() >= TOKEN_CACHE_LIMIT {
            entries.retain(|_, (at, _)| at.elapsed() < self.ttl);
            if entries.len() >= TOKEN_CACHE_LIMIT {
                entries.clear();
            }
        }
        entries.insert(hash, (Instant::now(), token));
    }

    /// Forgets every token: called when one is revoked.
    pub fn clear(&self) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    fn token(name: &str) -> TokenRow {
        TokenRow {
            id: Uuid::new_v4(),
            team_id: Some("alpha".into()),
            name: name.into(),
            scope: "read".into(),
            agent_id: None,
            created_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn the_token_cache_keeps_a_token_for_its_ttl() {
        let cache = TokenCache::new(Duration::from_millis(50));
        let generation = cache.get(b"h").unwrap_err();
        cache.put(b"h".to_vec(), token("ci"), generation);
        assert_eq!(cache.get(b"h").unwrap().name, "ci");
        assert!(cache.get(b"other").is_err());
        std::thread::sleep(Duration::from_millis(60));
        assert!(cache.get(b"h").is_err(), "expired");
    }

    #[test]
    fn a_revocation_empties_the_token_cache_and_beats_lookups_in_flight() {
        let cache = TokenCache::new(Duration::from_secs(60));
        let generation = cache.get(b"h").unwrap_err();
        cache.put(b"h".to_vec(), token("ci"), generation);
        // A lookup starts, a token is revoked, the lookup ends: what it read is stale.
        let in_flight = cache.get(b"k").unwrap_err();
        cache.clear();
        assert!(cache.get(b"h").is_err(), "cleared");
        cache.put(b"k".to_vec(), token("late"), in_flight);
        assert!(cache.get(b"k").is_err(), "a lookup older than the revocation is not kept");
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let cache = TokenCache::new(Duration::ZERO);
        let generation = cache.get(b"h").unwrap_err();
        cache.put(b"h".to_vec(), token("ci"), generation);
        assert!(cache.get(b"h").is_err());
    }

    #[test]
    fn secrets_are_random_and_hash_stably() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(a.starts_with("rl_") && a.len() == 67);
        assert_eq!(hash_secret(&a), hash_secret(&a));
        assert_ne!(hash_secret(&a), hash_secret(&b));
    }
}
