//! reviewlock: the reviewer rejection lockout protocol, as an HTTP/JSON service.
//!
//! `domain` decides every rule; `app` runs each use case (a write as one transaction, a read as
//! one snapshot); `store` is the SQL; `http` is axum and the OpenAPI spec.

pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod domain;
pub mod error;
pub mod guard;
pub mod hook;
pub mod http;
pub mod mcp;
pub mod metrics;
pub mod rate_limit;
pub mod resources;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod validate;

use std::sync::Arc;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgPool, Postgres};

pub use http::{app, openapi};

use crate::config::{DatabaseConfig, PoolConfig, ServeConfig};
use crate::store::Db;

/// The migrations, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// A pooled connection idle for longer than this is pinged before a request uses it.
pub(crate) const PING_IDLE_AFTER: Duration = Duration::from_secs(5);

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub pool: Db,
    /// SHA-256 of `REVIEWLOCK_ADMIN_TOKEN`, when set.
    pub admin_token_hash: Option<Arc<Vec<u8>>>,
    pub request_timeout: Duration,
    /// How long a request's body may take to arrive once its headers did (408 past it).
    pub body_read_timeout: Duration,
    /// Wakes long polls and event streams; its listener starts with the first of them (or at
    /// [`serve`]) and holds one connection of the pool.
    pub feed: store::listener::Feed,
    /// Per-token request buckets (`REVIEWLOCK_RATE_LIMIT`); disabled by [`AppState::new`].
    pub rate_limiter: rate_limit::RateLimiter,
    /// Requests with unknown tokens per client address (`REVIEWLOCK_FAILED_LOGIN_LIMIT`);
    /// disabled by [`AppState::new`].
    pub failed_logins: rate_limit::RateLimiter,
    /// Tokens looked up lately, and secrets found to name none (`REVIEWLOCK_TOKEN_CACHE_TTL`).
    pub tokens: Arc<auth::TokenCache>,
    /// Artifacts' globs, compiled once each for the path checks.
    pub coverage: Arc<app::globs::Coverage>,
    /// The database's gauges of `/metrics`, refreshed in the background by [`serve`].
    pub database_gauges: Arc<metrics::DatabaseGauges>,
    /// What `/mcp` accepts besides a token (`REVIEWLOCK_MCP_ALLOWED_HOSTS`, `…_ORIGINS`).
    pub mcp: Arc<mcp::HttpSettings>,
}

impl AppState {
    pub fn new(pool: PgPool) -> Self {
        let pool = Db::new(pool);
        let feed = store::listener::Feed::new(pool.clone());
        Self {
            pool,
            admin_token_hash: None,
            request_timeout: Duration::from_secs(30),
            body_read_timeout: Duration::from_secs(10),
            feed,
            rate_limiter: rate_limit::RateLimiter::disabled(),
            failed_logins: rate_limit::RateLimiter::disabled(),
            tokens: Arc::new(auth::TokenCache::new(Duration::from_secs(1))),
            coverage: Arc::default(),
            database_gauges: Arc::default(),
            mcp: Arc::default(),
        }
    }
}

/// The spec as served at `/openapi.json`, pretty-printed.
pub fn openapi_json() -> String {
    openapi().to_pretty_json().expect("the spec serializes")
}

/// Creates the database if it does not exist, connects, and applies the migrations. An error
/// names the server and database it was about (never the password) and what to check.
pub async fn connect(database: &DatabaseConfig, config: &PoolConfig) -> Result<PgPool, String> {
    let target = startup::Target::parse(&database.database_url)?;
    let url = &database.database_url;
    if !Postgres::database_exists(url).await.map_err(|e| target.failed("connecting", e))? {
        // Loudly: a typo in DATABASE_URL must not pass for a fresh, empty database.
        tracing::warn!(database = %target.database, server = %target.server, "the database does not exist; creating it");
        match Postgres::create_database(url).await {
            Ok(()) => tracing::warn!(database = %target.database, "created the database"),
            // Another replica created it first.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P04") => {}
            Err(e) => return Err(target.failed("creating the database", e)),
        }
    }
    if target.is_maintenance() {
        tracing::warn!(
            database = %target.database,
            "DATABASE_URL names Postgres's maintenance database: reviewlock's tables will live there"
        );
    }
    let options = target.options.clone();
    let pool = PgPoolOptions::new()
        .max_connections(config.db_max_connections)
        .acquire_timeout(config.db_acquire_timeout)
        // sqlx pings every connection it takes back (a read's connection, parked by `store::Db`
        // instead, had every statement complete); pinging again on acquire would add a round
        // trip to every request. Only a connection idle for a while (one a database restart or
        // a proxy may have cut) is pinged first, and replaced if it does not answer.
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move { Ok(meta.idle_for < PING_IDLE_AFTER || conn.ping().await.is_ok()) })
        })
        .connect_with(options)
        .await
        .map_err(|e| target.failed("connecting", e))?;
    MIGRATOR.run(&pool).await.map_err(|e| target.failed("applying the migrations", e))?;
    Ok(pool)
}

/// Runs the service until SIGTERM or Ctrl-C, then drains in-flight requests for at most the
/// shutdown timeout.
pub async fn serve(config: ServeConfig) -> Result<(), Box<dyn std::error::Error>> {
    let pool = Db::new(connect(&config.database, &config.pool).await?);
    let admin_token = config.admin_token.as_deref().map(str::trim).filter(|t| !t.is_empty());
    if admin_token.is_none() {
        bootstrap_admin_token(&pool, &config.admin_token_file).await?;
    }
    let state = AppState {
        pool: pool.clone(),
        admin_token_hash: admin_token.map(|t| Arc::new(auth::hash_secret(t))),
        request_timeout: config.request_timeout,
        body_read_timeout: config.body_read_timeout,
        feed: store::listener::Feed::new(pool),
        rate_limiter: rate_limit::RateLimiter::new(config.rate_limit),
        failed_logins: rate_limit::RateLimiter::new(config.failed_login_limit),
        tokens: Arc::new(auth::TokenCache::new(config.token_cache_ttl)),
        coverage: Arc::default(),
        database_gauges: Arc::default(),
        mcp: Arc::new(config.mcp()),
    };
    tokio::spawn(purge_idempotency_keys(state.pool.clone()));
    tokio::spawn(crate::metrics::upkeep());
    // The database's gauges of /metrics, read before the first scrape and then in the background.
    state.database_gauges.refresh(&state.pool).await;
    tokio::spawn({
        let (gauges, pool) = (state.database_gauges.clone(), state.pool.clone());
        async move { gauges.keep_fresh(pool).await }
    });
    // The one LISTEN of this process, before the first request.
    state.feed.start();
    let feed = state.feed.clone();
    let listener = tokio::net::TcpListener::bind(&config.listen).await.map_err(|e| {
        let hint = match e.kind() {
            std::io::ErrorKind::AddrInUse => {
                "; another process listens there: stop it or set REVIEWLOCK_LISTEN"
            }
            _ => "; check REVIEWLOCK_LISTEN",
        };
        format!("cannot listen on {}: {e}{hint}", config.listen)
    })?;
    tracing::info!(listen = %listener.local_addr()?, "reviewlock serving");
    let limits = connection_limits(&config);
    let stopping = Arc::new(tokio::sync::Notify::new());
    let server = http::connections::serve(listener, app(state), limits, {
        let stopping = stopping.clone();
        async move {
            shutdown_signal().await;
            tracing::info!("shutting down: draining in-flight requests");
            // Open event streams end and long polls answer now, or they would hold the drain.
            feed.close();
            stopping.notify_one();
        }
    });
    tokio::select! {
        () = server => {}
        () = async { stopping.notified().await; tokio::time::sleep(config.shutdown_timeout).await } => {
            tracing::warn!("drain timeout reached; exiting with requests still in flight");
        }
    }
    Ok(())
}

/// The connection limits, with the limit on open files raised to fit them; when it cannot be,
/// fewer connections, leaving room for the database pool and the rest of the process.
fn connection_limits(config: &ServeConfig) -> http::connections::Limits {
    let reserve = config.pool.db_max_connections as usize + 64;
    let wanted = config.max_connections.saturating_add(reserve);
    let allowed = http::connections::raise_open_files_limit(wanted as u64);
    let max_connections = config.max_connections.min((allowed as usize).saturating_sub(reserve)).max(1);
    if max_connections < config.max_connections {
        tracing::warn!(
            open_files_limit = allowed,
            max_connections,
            "the limit on open files allows fewer connections than REVIEWLOCK_MAX_CONNECTIONS; raise it (ulimit -n)"
        );
    }
    http::connections::Limits {
        max_connections,
        header_read_timeout: config.header_read_timeout,
        write_timeout: config.write_timeout,
    }
}

/// With no admin token configured and no token in the database, creates one, so a newcomer can
/// start with curl. Its secret is shown once, to a person: on stderr when that is a terminal,
/// else written to `file` (readable by this user only) before the token is committed, so a
/// secret nobody can read is never created. It never enters the log stream.
async fn bootstrap_admin_token(pool: &Db, file: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::IsTerminal;
    let secret = auth::new_secret();
    let mut tx = pool.begin().await?;
    if !store::tokens::bootstrap_admin(&mut tx, &auth::hash_secret(&secret)).await? {
        return Ok(());
    }
    if std::io::stderr().is_terminal() {
        tx.commit().await?;
        eprintln!(
            "\nreviewlock: created the server-wide admin token (shown only now; list and revoke server-wide \
             tokens at /v1/tokens, or set REVIEWLOCK_ADMIN_TOKEN to use your own):\n\n    {secret}\n"
        );
        return Ok(());
    }
    write_secret(file, &secret).map_err(|e| {
        format!(
            "cannot write the bootstrap admin token to {} ({e}); set REVIEWLOCK_ADMIN_TOKEN_FILE to a writable \
             path, or REVIEWLOCK_ADMIN_TOKEN to a secret of your own",
            file.display()
        )
    })?;
    tx.commit().await?;
    tracing::warn!(
        file = %file.display(),
        "created the server-wide admin token; its secret is in this file, readable only by this user: \
         read it, then delete the file (list and revoke server-wide tokens at /v1/tokens)"
    );
    Ok(())
}

/// Writes a secret to a file only its owner may read (created so, or narrowed if it exists).
fn write_secret(file: &std::path::Path, secret: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(file)?;
    #[cfg(unix)]
    f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    writeln!(f, "{secret}")?;
    f.sync_all()
}

/// Deletes expired idempotency keys every ten minutes; a key expires 24 hours after its request.
async fn purge_idempotency_keys(pool: Db) {
    let mut every = tokio::time::interval(Duration::from_secs(600));
    loop {
        every.tick().await;
        let purged = async { store::idempotency::purge_expired(&mut *pool.acquire().await?).await };
        match purged.await {
            Ok(0) => {}
            Ok(n) => tracing::info!(purged = n, "purged expired idempotency keys"),
            Err(e) => tracing::warn!(error = %e, "purging expired idempotency keys failed; will retry"),
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        () = terminate => {}
    }
}
