//! Bearer tokens and what each scope may do (PROTOCOL §5).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::Error;
use crate::store::tokens::TokenRow;

/// What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
/// escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Read,
    Coordinator,
    User,
    Admin,
    /// Bound to one agent: it may submit versions that agent authors, reviews it gives and
    /// checks about it, and read its team.
    Agent,
}

impl Scope {
    pub const ALL: [Scope; 5] = [Scope::Read, Scope::Coordinator, Scope::User, Scope::Admin, Scope::Agent];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Coordinator => "coordinator",
            Scope::User => "user",
            Scope::Admin => "admin",
            Scope::Agent => "agent",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }

    /// Whether a token of this scope may do what `needed` guards.
    pub fn allows(self, needed: Scope) -> bool {
        match needed {
            Scope::Read => true,
            Scope::Coordinator => matches!(self, Scope::Coordinator | Scope::Admin),
            Scope::Admin => self == Scope::Admin,
            Scope::User => self == Scope::User,
            Scope::Agent => self == Scope::Agent,
        }
    }
}

/// A request's `Idempotency-Key` with the fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub key: String,
    /// SHA-256 of the method, the path and the body.
    pub fingerprint: Vec<u8>,
}

/// Who is calling: the token that authenticated the request, and what the request asserts.
#[derive(Debug, Clone)]
pub struct Caller {
    /// `None` for the admin token from `REVIEWLOCK_ADMIN_TOKEN`, which has no row.
    pub token_id: Option<Uuid>,
    pub token_name: String,
    /// `None` for a server-wide admin token, which may act on any team.
    pub team: Option<String>,
    pub scope: Scope,
    /// The agent an `agent` token acts as.
    pub agent: Option<String>,
    pub idempotency: Option<IdempotencyKey>,
    /// Who owns the request's idempotency keys: its token's id, or for the configured admin
    /// token, an id made of its secret's hash, so a rotated admin token never replays the
    /// responses of the one before.
    pub key_owner: Uuid,
    /// The `If-Match` header of a write to an artifact.
    pub if_match: Option<String>,
}

impl Caller {
    /// May this caller do what `needed` guards on `team`? Another team's token gets
    /// `not_found`, as if the team did not exist; a missing scope gets `forbidden`.
    pub fn require(&self, team: &str, needed: Scope) -> Result<(), Error> {
        if self.team.as_deref().is_some_and(|t| t != team) {
            return Err(team_not_found(team));
        }
        if !self.scope.allows(needed) {
            return Err(Error::Forbidden(format!(
                "this needs a token with scope '{}'; this token has '{}'",
                needed.as_str(),
                self.scope.as_str()
            )));
        }
        Ok(())
    }

    /// May this caller act as `agent` on `team`? A coordinator may name any agent; an agent
    /// token only its own (anything else is 403 `forbidden`).
    pub fn require_actor(&self, team: &str, agent: &str) -> Result<(), Error> {
        match (&self.scope, &self.agent) {
            (Scope::Agent, Some(own)) => {
                self.require(team, Scope::Read)?;
                if own == agent {
                    Ok(())
                } else {
                    Err(Error::Forbidden(format!("this token acts only as agent '{own}', not '{agent}'")))
                }
            }
            _ => self.require(team, Scope::Coordinator),
        }
    }

    /// May this caller credit these agents on a version it writes? As [`Caller::require_actor`]
    /// for the author; an agent token credits only its own agent, since one rejection locks out
    /// everyone credited: crediting others is for coordinator tokens.
    pub fn require_credits<'a>(
        &self,
        team: &str,
        author: &str,
        contributors: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), Error> {
        self.require_actor(team, author)?;
        if let (Scope::Agent, Some(own)) = (&self.scope, &self.agent)
            && let Some(other) = contributors.into_iter().find(|c| c != own)
        {
            return Err(Error::Forbidden(format!(
                "this token acts only as agent '{own}' and cannot credit '{other}'; a coordinator token credits other agents"
            )));
        }
        Ok(())
    }

    pub fn is_server_admin(&self) -> bool {
        self.team.is_none() && self.scope == Scope::Admin
    }
}

pub fn team_not_found(team: &str) -> Error {
    Error::NotFound(format!("team '{team}' does not exist"))
}

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
    use super::*;

    #[test]
    fn scopes_nest_as_the_protocol_says() {
        use Scope::*;
        for s in [Read, Coordinator, User, Admin] {
            assert!(s.allows(Read), "{s:?} reads");
        }
        assert!(Coordinator.allows(Coordinator) && Admin.allows(Coordinator));
        assert!(!Read.allows(Coordinator) && !User.allows(Coordinator));
        assert!(Admin.allows(Admin) && !Coordinator.allows(Admin) && !User.allows(Admin));
        assert!(User.allows(User));
        assert!(!Admin.allows(User) && !Coordinator.allows(User) && !Read.allows(User));
    }

    #[test]
    fn another_teams_token_sees_not_found() {
        let caller = Caller {
            token_id: None,
            token_name: "t".into(),
            team: Some("a".into()),
            scope: Scope::Admin,
            agent: None,
            idempotency: None,
            key_owner: Uuid::nil(),
            if_match: None,
        };
        assert_eq!(caller.require("b", Scope::Read).unwrap_err().code(), "not_found");
        assert!(caller.require("a", Scope::Admin).is_ok());
        assert_eq!(caller.require("a", Scope::User).unwrap_err().code(), "forbidden");
    }

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
