//! Authenticating a request: a bearer secret becomes the [`Actor`] it names, or a refusal. The
//! configured admin token is checked first; any other secret is looked up by its hash, through
//! a cache of recent lookups that also remembers secrets naming no token. A token is
//! rate-limited only once it authenticated, and a client sending unknown secrets is refused
//! before any lookup once it sent too many.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::app::actor::Actor;
use crate::auth::hash_secret;
use crate::domain::Scope;
use crate::error::Error;
use crate::rate_limit::RateLimiter;
use crate::store::Db;
use crate::store::tokens::{self, TokenRow};

/// Who may call, and how often.
#[derive(Clone)]
pub struct Authenticator {
    /// SHA-256 of `REVIEWLOCK_ADMIN_TOKEN`, when set.
    pub admin_token_hash: Option<Arc<Vec<u8>>>,
    /// Tokens looked up lately, and secrets found to name none (`REVIEWLOCK_TOKEN_CACHE_TTL`).
    pub tokens: Arc<TokenCache>,
    /// Per-token request buckets (`REVIEWLOCK_RATE_LIMIT`).
    pub rate_limiter: RateLimiter,
    /// Requests with unknown tokens per client address (`REVIEWLOCK_FAILED_LOGIN_LIMIT`).
    pub failed_logins: RateLimiter,
}

impl Authenticator {
    /// The actor `secret` names: `Unauthenticated` for an unknown or revoked one;
    /// `RateLimited` when this token is over its rate limit; `TooManyFailedLogins` when
    /// `client` sent too many unknown secrets lately and this one is not cached (no lookup is
    /// made then).
    pub async fn authenticate(&self, db: &Db, secret: &str, client: Option<IpAddr>) -> Result<Actor, Error> {
        let hash = hash_secret(secret);
        if self.admin_token_hash.as_deref() == Some(&hash) {
            self.rate_limit(&hash)?;
            return Ok(Actor {
                token_id: None,
                token_name: "server-admin".into(),
                team: None,
                scope: Scope::Admin,
                agent: None,
                key_owner: uuid::Uuid::from_slice(&hash[..16]).expect("a SHA-256 hash has 16 bytes and more"),
            });
        }
        let cached = self.tokens.get(&hash);
        let token = match cached {
            Cached::Known(token) => Some(token),
            Cached::Unknown | Cached::Miss(_) => {
                let address = address_key(client);
                self.failed_logins
                    .exhausted(&address)
                    .map_err(|retry_after_secs| Error::TooManyFailedLogins { retry_after_secs })?;
                let token = match cached {
                    Cached::Miss(generation) => {
                        let token = db
                            .read(async |conn| tokens::find_by_hash(conn, &hash).await)
                            .await
                            .map_err(uncheckable)?;
                        self.tokens.put(hash.clone(), token.clone(), generation);
                        token
                    }
                    _ => None,
                };
                if token.is_none() {
                    // Counted once it failed; the bucket only says when to stop looking.
                    let _ = self.failed_logins.check(&address);
                }
                token
            }
        };
        let token = token.ok_or(Error::Unauthenticated)?;
        self.rate_limit(&hash)?;
        Ok(Actor {
            token_id: Some(token.id),
            token_name: token.name,
            team: token.team_id,
            scope: token.scope,
            agent: token.agent_id,
            key_owner: token.id,
        })
    }

    /// Takes one request from the bucket of a token that authenticated: only then, so made-up
    /// tokens never get a bucket (they are refused first).
    fn rate_limit(&self, hash: &[u8]) -> Result<(), Error> {
        self.rate_limiter.check(hash).map_err(|retry_after_secs| Error::RateLimited { retry_after_secs })
    }
}

/// Whom failed logins are counted against: the client's IPv4 address, or its IPv6 /64 (one
/// host usually holds a whole /64). Without a client address (a request made in-process), one
/// shared key.
fn address_key(client: Option<IpAddr>) -> Vec<u8> {
    match client.map(|ip| ip.to_canonical()) {
        Some(IpAddr::V4(ip)) => ip.octets().to_vec(),
        Some(IpAddr::V6(ip)) => ip.octets()[..8].to_vec(),
        None => Vec::new(),
    }
}

/// The token could not be looked up: say so, rather than blame the database for a request the
/// client may think was refused for its token.
fn uncheckable(e: sqlx::Error) -> Error {
    match Error::from(e) {
        Error::Unavailable => Error::refused(
            crate::domain::Code::Unavailable,
            "the bearer token could not be checked: the database is unavailable; retry after Retry-After seconds",
        ),
        other => other,
    }
}

/// Tokens looked up lately, by secret hash, so a client's requests skip the token lookup (a
/// pooled connection and a round trip each), and so does a made-up or revoked secret sent again.
/// An entry lives `ttl`. Creating or revoking a token through this process empties the cache,
/// so the change takes effect at once on the replica that made it and within `ttl` on the
/// others; a `ttl` of zero turns the cache off. Tokens that exist and secrets that do not are
/// kept apart, each up to [`TOKEN_CACHE_LIMIT`], so made-up secrets cannot push out real tokens.
pub struct TokenCache {
    ttl: Duration,
    entries: Mutex<Entries>,
    /// Bumped by [`TokenCache::clear`]: a lookup that began before a token was created or
    /// revoked must not store what it read.
    generation: AtomicU64,
    /// Lookups made, as their results are offered to [`TokenCache::put`]: each was one query.
    lookups: AtomicU64,
}

#[derive(Default)]
struct Entries {
    known: HashMap<Vec<u8>, (Instant, TokenRow)>,
    unknown: HashMap<Vec<u8>, Instant>,
}

/// What the cache knows of a secret's hash.
pub enum Cached {
    /// A token that exists.
    Known(TokenRow),
    /// No token has this hash (as of less than `ttl` ago).
    Unknown,
    /// Not cached: look it up, then [`TokenCache::put`] what was found with this generation.
    Miss(u64),
}

/// The most entries of each kind kept; past it, expired ones are dropped, then all if none were.
const TOKEN_CACHE_LIMIT: usize = 10_000;

/// Makes room in a map of entries stamped with when they were made.
fn make_room<V>(map: &mut HashMap<Vec<u8>, V>, ttl: Duration, at: impl Fn(&V) -> Instant) {
    if map.len() >= TOKEN_CACHE_LIMIT {
        map.retain(|_, v| at(v).elapsed() < ttl);
        if map.len() >= TOKEN_CACHE_LIMIT {
            map.clear();
        }
    }
}

impl TokenCache {
    pub fn new(ttl: Duration) -> Self {
        TokenCache {
            ttl,
            entries: Mutex::default(),
            generation: AtomicU64::new(0),
            lookups: AtomicU64::new(0),
        }
    }

    /// What the cache knows of this hash.
    pub fn get(&self, hash: &[u8]) -> Cached {
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, token)) = entries.known.get(hash)
            && at.elapsed() < self.ttl
        {
            return Cached::Known(token.clone());
        }
        if entries.unknown.get(hash).is_some_and(|at| at.elapsed() < self.ttl) {
            return Cached::Unknown;
        }
        Cached::Miss(generation)
    }

    /// Keeps what a lookup in the database found (`None`: no such token), unless the cache was
    /// cleared since it began.
    pub fn put(&self, hash: Vec<u8>, token: Option<TokenRow>, generation: u64) {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        if self.ttl.is_zero() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if self.generation.load(Ordering::Acquire) != generation {
            return;
        }
        let now = Instant::now();
        match token {
            Some(token) => {
                make_room(&mut entries.known, self.ttl, |(at, _)| *at);
                entries.known.insert(hash, (now, token));
            }
            None => {
                make_room(&mut entries.unknown, self.ttl, |at| *at);
                entries.unknown.insert(hash, now);
            }
        }
    }

    /// Forgets everything: called when a token is created or revoked.
    pub fn clear(&self) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.known.clear();
        entries.unknown.clear();
    }

    /// How many lookups were made since the cache was (each one query).
    pub fn lookups(&self) -> u64 {
        self.lookups.load(Ordering::Relaxed)
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
            scope: crate::domain::Scope::Read,
            agent_id: None,
            created_at: chrono::Utc::now(),
        }
    }

    fn miss(cache: &TokenCache, hash: &[u8]) -> u64 {
        match cache.get(hash) {
            Cached::Miss(generation) => generation,
            _ => panic!("expected a miss"),
        }
    }

    fn known(cache: &TokenCache, hash: &[u8]) -> Option<String> {
        match cache.get(hash) {
            Cached::Known(token) => Some(token.name),
            _ => None,
        }
    }

    #[test]
    fn failed_logins_count_against_an_ipv4_address_or_an_ipv6_64() {
        let key = |s: &str| address_key(Some(s.parse().unwrap()));
        assert_eq!(key("10.0.0.7"), vec![10, 0, 0, 7]);
        assert_eq!(key("::ffff:10.0.0.7"), vec![10, 0, 0, 7], "a mapped IPv4 is that IPv4");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert!(address_key(None).is_empty());
    }

    #[test]
    fn the_token_cache_keeps_a_token_for_its_ttl() {
        let cache = TokenCache::new(Duration::from_millis(50));
        let generation = miss(&cache, b"h");
        cache.put(b"h".to_vec(), Some(token("ci")), generation);
        assert_eq!(known(&cache, b"h").as_deref(), Some("ci"));
        miss(&cache, b"other");
        std::thread::sleep(Duration::from_millis(60));
        miss(&cache, b"h");
        assert_eq!(cache.lookups(), 1);
    }

    #[test]
    fn an_unknown_secret_is_remembered_until_a_token_is_created() {
        let cache = TokenCache::new(Duration::from_secs(60));
        let generation = miss(&cache, b"made-up");
        cache.put(b"made-up".to_vec(), None, generation);
        assert!(matches!(cache.get(b"made-up"), Cached::Unknown));
        assert_eq!(cache.lookups(), 1, "a made-up secret sent again costs no lookup");
        cache.clear();
        miss(&cache, b"made-up");
    }

    #[test]
    fn made_up_secrets_do_not_push_out_real_tokens() {
        let cache = TokenCache::new(Duration::from_secs(60));
        cache.put(b"real".to_vec(), Some(token("ci")), 0);
        for i in 0..(TOKEN_CACHE_LIMIT as u32 + 10) {
            cache.put(i.to_be_bytes().to_vec(), None, 0);
        }
        assert_eq!(known(&cache, b"real").as_deref(), Some("ci"));
    }

    #[test]
    fn a_revocation_empties_the_token_cache_and_beats_lookups_in_flight() {
        let cache = TokenCache::new(Duration::from_secs(60));
        let generation = miss(&cache, b"h");
        cache.put(b"h".to_vec(), Some(token("ci")), generation);
        // A lookup starts, a token is revoked, the lookup ends: what it read is stale.
        let in_flight = miss(&cache, b"k");
        cache.clear();
        miss(&cache, b"h");
        cache.put(b"k".to_vec(), Some(token("late")), in_flight);
        miss(&cache, b"k");
    }

    #[test]
    fn a_zero_ttl_caches_nothing() {
        let cache = TokenCache::new(Duration::ZERO);
        let generation = miss(&cache, b"h");
        cache.put(b"h".to_vec(), Some(token("ci")), generation);
        cache.put(b"u".to_vec(), None, generation);
        miss(&cache, b"h");
        miss(&cache, b"u");
    }
}
