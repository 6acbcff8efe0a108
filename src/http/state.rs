//! What every handler shares.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;

use crate::app::authenticate::{Authenticator, TokenCache};
use crate::app::deliver::Outbox;
use crate::app::globs::Coverage;
use crate::app::index::{Index, IndexSettings};
use crate::config::McpSettings;
use crate::metrics::{DatabaseGauges, IndexGauges};
use crate::outbound::{Client, Policy};
use crate::rate_limit::RateLimiter;
use crate::store::Db;
use crate::store::listener::Feed;

/// What every handler shares. Each extractor and middleware of a request takes a clone, so a
/// clone is one reference count; changing a field (as the tests do before serving) changes this
/// value alone, copying the fields if another clone shares them.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// The fields of [`AppState`], reached through it.
#[derive(Clone)]
pub struct Shared {
    pub pool: Db,
    /// The admin token, the token cache and the limits on requests per token and on unknown
    /// tokens per client; both limits disabled by [`AppState::new`].
    pub auth: Authenticator,
    pub request_timeout: Duration,
    /// How long a request's body may take to arrive once its headers did (408 past it).
    pub body_read_timeout: Duration,
    /// Wakes long polls and event streams; its listener starts with the first of them (or at
    /// `serve`) and holds one connection of the pool.
    pub feed: Feed,
    /// Artifacts' globs, compiled once each for the path checks.
    pub coverage: Arc<Coverage>,
    /// The database's gauges of `/metrics`, refreshed in the background by `serve`.
    pub database_gauges: Arc<DatabaseGauges>,
    /// What `/mcp` accepts besides a token (`REVIEWLOCK_MCP_ALLOWED_HOSTS`, `…_ORIGINS`).
    pub mcp: Arc<McpSettings>,
    /// The lockout index: answers checks and unchanged conditional polls while it is current.
    pub index: Index,
    /// Its size and use, for `/metrics`.
    pub index_gauges: Arc<IndexGauges>,
    /// Webhooks' and forges' client, sealing keys and wake-up (`app::deliver`); by
    /// [`AppState::new`], strict (https and public addresses only) and without keys.
    pub outbox: Outbox,
}

impl AppState {
    pub fn new(pool: PgPool) -> Self {
        let pool = Db::new(pool);
        let feed = Feed::new(pool.clone());
        let index_gauges = Arc::new(IndexGauges::default());
        let index = Index::new(pool.clone(), &feed, IndexSettings::default(), index_gauges.clone());
        Self::from(Shared {
            pool,
            auth: Authenticator {
                admin_token_hash: None,
                tokens: Arc::new(TokenCache::new(Duration::from_secs(1))),
                rate_limiter: RateLimiter::disabled(),
                failed_logins: RateLimiter::disabled(),
            },
            request_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(10),
            feed,
            coverage: Arc::default(),
            database_gauges: Arc::default(),
            mcp: Arc::default(),
            index,
            index_gauges,
            outbox: Outbox::new(Client::new(Policy::default()), None, None),
        })
    }

    /// The state with the lockout index set up by `settings` (off: every check asks the
    /// database).
    pub fn with_index(mut self, settings: IndexSettings) -> Self {
        self.index = Index::new(self.pool.clone(), &self.feed, settings, self.index_gauges.clone());
        self
    }
}

impl From<Shared> for AppState {
    fn from(shared: Shared) -> Self {
        AppState(Arc::new(shared))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl DerefMut for AppState {
    fn deref_mut(&mut self) -> &mut Shared {
        Arc::make_mut(&mut self.0)
    }
}
