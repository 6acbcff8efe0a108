//! Running the service: the state built from the configuration, the background tasks, the
//! listening socket, and a graceful shutdown.

use std::sync::Arc;

use crate::app::authenticate::{Authenticator, TokenCache};
use crate::app::deliver::{self, Outbox};
use crate::app::index::Index;
use crate::app::{bootstrap, upkeep};
use crate::config::ServeConfig;
use crate::http::state::{AppState, Shared};
use crate::outbound::{Client, Policy};
use crate::rate_limit::RateLimiter;
use crate::seal::Keys;
use crate::store::Db;
use crate::store::listener::Feed;
use crate::{auth, http, mcp, metrics, startup};

type BoxError = Box<dyn std::error::Error>;

/// The whole service: the REST API (`http`) with MCP's `/mcp` beside it, whose tools call the
/// REST routes in-process.
pub fn app(state: AppState) -> axum::Router {
    let settings = state.mcp.clone();
    http::app(state, move |rest| {
        axum::Router::new().route_service("/mcp", mcp::http_service(rest, &settings))
    })
}

/// Runs the service until SIGTERM or Ctrl-C, then drains in-flight requests for at most the
/// shutdown timeout.
pub async fn serve(config: ServeConfig) -> Result<(), BoxError> {
    let pool = Db::new(startup::connect(&config.database, &config.pool).await?);
    let admin_token = config.admin_token.as_deref().map(str::trim).filter(|t| !t.is_empty());
    if admin_token.is_none() {
        bootstrap_admin_token(&pool, &config.admin_token_file).await?;
    }
    let feed = Feed::new(pool.clone());
    let index_gauges = Arc::new(metrics::IndexGauges::default());
    let state = AppState::from(Shared {
        pool: pool.clone(),
        auth: Authenticator {
            admin_token_hash: admin_token.map(|t| Arc::new(auth::hash_secret(t))),
            tokens: Arc::new(TokenCache::new(config.token_cache_ttl)),
            rate_limiter: RateLimiter::new(config.rate_limit),
            failed_logins: RateLimiter::new(config.failed_login_limit),
        },
        request_timeout: config.request_timeout,
        body_read_timeout: config.body_read_timeout,
        feed: feed.clone(),
        coverage: Arc::default(),
        database_gauges: Arc::default(),
        mcp: Arc::new(config.mcp()),
        index: Index::new(pool.clone(), &feed, config.index(), index_gauges.clone()),
        index_gauges,
        outbox: outbox(&config)?,
    });
    tokio::spawn(upkeep::purge_idempotency_keys(state.pool.clone()));
    tokio::spawn(upkeep::purge_delivery_log(state.pool.clone()));
    if let Some(keys) = &state.outbox.keys {
        let resealed = deliver::reseal(&state.pool, keys)
            .await
            .map_err(|e| format!("sealing secrets with REVIEWLOCK_SECRET_KEY: {e}"))?;
        if resealed > 0 {
            tracing::info!(
                targets = resealed,
                "sealed the secrets of webhooks and forges with the current REVIEWLOCK_SECRET_KEY"
            );
        }
    }
    // Webhooks and commit statuses, from the event log (woken by the LISTEN started below).
    tokio::spawn(deliver::run(
        state.outbox.clone(),
        state.pool.clone(),
        state.feed.clone(),
        usize::from(config.delivery_concurrency),
    ));
    tokio::spawn(metrics::upkeep());
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

/// Deliveries' client, keys and links from the configuration; a key that does not parse stops
/// the start.
fn outbox(config: &ServeConfig) -> Result<Outbox, BoxError> {
    let key = config.secret_key.as_deref().map(str::trim).filter(|k| !k.is_empty());
    let keys = key.map(|k| Keys::parse(k, &config.secret_key_previous)).transpose()?;
    if keys.is_none() {
        tracing::info!("REVIEWLOCK_SECRET_KEY is not set: webhooks and forges cannot be set up");
    }
    let policy =
        Policy { allow_http: config.webhook_allow_http, allow_private: config.webhook_allow_private };
    let public_url = config.public_url.as_deref().map(str::trim).filter(|u| !u.is_empty());
    Ok(Outbox::new(Client::new(policy), keys, public_url))
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
async fn bootstrap_admin_token(pool: &Db, file: &std::path::Path) -> Result<(), BoxError> {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        if let Some(secret) = bootstrap::admin_token::<BoxError>(pool, |_| Ok(())).await? {
            eprintln!(
                "\nreviewlock: created the server-wide admin token (shown only now; list and revoke server-wide \
                 tokens at /v1/tokens, or set REVIEWLOCK_ADMIN_TOKEN to use your own):\n\n    {secret}\n"
            );
        }
        return Ok(());
    }
    let written = bootstrap::admin_token::<BoxError>(pool, |secret| {
        write_secret(file, secret).map_err(|e| {
            format!(
                "cannot write the bootstrap admin token to {} ({e}); set REVIEWLOCK_ADMIN_TOKEN_FILE to a writable \
                 path, or REVIEWLOCK_ADMIN_TOKEN to a secret of your own",
                file.display()
            )
            .into()
        })
    })
    .await?;
    if written.is_some() {
        tracing::warn!(
            file = %file.display(),
            "created the server-wide admin token; its secret is in this file, readable only by this user: \
             read it, then delete the file (list and revoke server-wide tokens at /v1/tokens)"
        );
    }
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
