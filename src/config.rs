//! Settings, from flags or the environment.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "reviewlock",
    version,
    propagate_version = true,
    about = "The reviewer rejection lockout protocol, as a service"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API (the default).
    Serve(ServeConfig),
    /// Apply the database migrations (creating the database if needed) and exit.
    Migrate(DatabaseConfig),
    /// Print the OpenAPI spec (the committed `openapi/openapi.json` is its output).
    Openapi,
    /// Manage tokens straight in the database, for bootstrap and recovery.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Ask a running server whether an agent may write these files: exit 0 if allowed, 1 with
    /// the denials if not (for a pre-write hook), 2 if it could not ask.
    Check(CheckArgs),
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a team token and print only its secret, once, on stdout.
    Create(TokenCreateArgs),
}

#[derive(Debug, Clone, Args)]
pub struct TokenCreateArgs {
    #[arg(long)]
    pub team: String,
    /// read, coordinator, user, admin or agent.
    #[arg(long)]
    pub scope: String,
    /// Who or what holds the token.
    #[arg(long)]
    pub name: String,
    /// For scope `agent`: the agent the token acts as.
    #[arg(long)]
    pub agent: Option<String>,
    #[command(flatten)]
    pub database: DatabaseConfig,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    #[arg(long)]
    pub team: String,
    #[arg(long)]
    pub agent: String,
    /// The files about to be written.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The server's base URL.
    #[arg(long, env = "REVIEWLOCK_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// A token of the team (`read`, or the agent's own `agent` token).
    #[arg(long, env = "REVIEWLOCK_TOKEN", hide_env_values = true)]
    pub token: String,
}

#[derive(Debug, Clone, Args)]
pub struct DatabaseConfig {
    /// Postgres URL; the database is created if it does not exist.
    #[arg(long, env = "DATABASE_URL", default_value = "postgres://postgres@127.0.0.1:5432/reviewlock")]
    pub database_url: String,
    /// Most connections this process holds.
    #[arg(long, env = "REVIEWLOCK_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,
    /// How long a request waits for a connection before it answers 503 `unavailable`.
    #[arg(long, env = "REVIEWLOCK_DB_ACQUIRE_TIMEOUT", default_value = "3s", value_parser = parse_duration)]
    pub db_acquire_timeout: Duration,
}

#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "REVIEWLOCK_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub database: DatabaseConfig,
    /// The server-wide admin token. When unset and no token exists yet, one is created at first
    /// start and printed once on stderr.
    #[arg(long, env = "REVIEWLOCK_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Most connections open at once. A new connection past it closes the one that has waited
    /// longest for a request (never one with a request in progress), so a flood of idle
    /// sockets cannot keep others out; with every connection busy, the new one is closed.
    #[arg(long, env = "REVIEWLOCK_MAX_CONNECTIONS", default_value_t = 2048)]
    pub max_connections: usize,
    /// How long a client may take to send a request's headers, and how long a kept-alive
    /// connection may wait for its next request; the connection is closed past it.
    #[arg(long, env = "REVIEWLOCK_HEADER_READ_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive once its headers did: past it, 408
    /// `request_timeout`.
    #[arg(long, env = "REVIEWLOCK_BODY_READ_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub body_read_timeout: Duration,
    /// Longest time a request may take before it answers 503.
    #[arg(long, env = "REVIEWLOCK_REQUEST_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub request_timeout: Duration,
    /// How long in-flight requests may drain after SIGTERM or Ctrl-C.
    #[arg(long, env = "REVIEWLOCK_SHUTDOWN_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub shutdown_timeout: Duration,
    /// Requests per second each token may send, with a burst: `RATE/BURST` (`RATE` alone allows
    /// a burst of twice the rate); `0` disables. Over it, requests answer 429 `rate_limited`.
    #[arg(long, env = "REVIEWLOCK_RATE_LIMIT", default_value = "50/100")]
    pub rate_limit: crate::rate_limit::RateLimit,
    /// Requests with an unknown bearer token each client address may send, per second with a
    /// burst (`RATE/BURST`); past it, its requests whose token is not cached answer 429
    /// `rate_limited` without a lookup; `0` disables.
    #[arg(long, env = "REVIEWLOCK_FAILED_LOGIN_LIMIT", default_value = "5/20")]
    pub failed_login_limit: crate::rate_limit::RateLimit,
    /// How long a token lookup is trusted: a token revoked through another replica is refused
    /// here after at most this long, and a secret found to name no token is refused without a
    /// lookup for as long (a token created through this replica clears it); 0 looks every one up.
    #[arg(long, env = "REVIEWLOCK_TOKEN_CACHE_TTL", default_value = "1s", value_parser = parse_duration)]
    pub token_cache_ttl: Duration,
}

impl ServeConfig {
    /// The settings with no flag and no environment: what `reviewlock` alone runs with.
    pub fn from_env() -> Self {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            serve: ServeConfig,
        }
        Only::parse_from(["reviewlock"]).serve
    }
}

/// `250ms`, `3s`, `2m`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (number, unit) = s.find(|c: char| !c.is_ascii_digit()).map_or((s, "s"), |i| (&s[..i], &s[i..]));
    let n: u64 = number.parse().map_err(|_| format!("'{s}' is not a duration like 500ms, 3s or 2m"))?;
    match unit {
        "ms" => Ok(Duration::from_millis(n)),
        "s" => Ok(Duration::from_secs(n)),
        "m" => Ok(Duration::from_secs(n * 60)),
        _ => Err(format!("'{s}' is not a duration like 500ms, 3s or 2m")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert!(parse_duration("3h").is_err());
        assert!(parse_duration("s").is_err());
    }

    #[test]
    fn no_subcommand_means_serve_with_defaults() {
        let cli = Cli::parse_from(["reviewlock"]);
        assert!(cli.command.is_none());
        let cli = Cli::parse_from(["reviewlock", "serve", "--listen", "0.0.0.0:9000"]);
        let Some(Command::Serve(c)) = cli.command else { panic!("serve expected") };
        assert_eq!(c.listen.port(), 9000);
        assert_eq!(c.rate_limit, crate::rate_limit::RateLimit::new(50.0, 100));
        let cli = Cli::parse_from(["reviewlock", "serve", "--rate-limit", "0"]);
        let Some(Command::Serve(c)) = cli.command else { panic!("serve expected") };
        assert!(c.rate_limit.is_disabled());
    }
}
