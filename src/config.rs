//! Settings, from flags or the environment.

use std::time::Duration;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "reviewlock",
    version,
    propagate_version = true,
    about = "The reviewer rejection lockout protocol, as a service",
    long_about = "The reviewer rejection lockout protocol, as a service.\n\n\
        Without a command, serves the HTTP API (as `reviewlock serve`), with the options below. \
        Every option can also be set by the environment variable shown beside it; \
        `reviewlock <command> --help` lists a command's own.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `serve`'s options, which also work without the subcommand.
    #[command(flatten)]
    pub serve: ServeConfig,
}

impl Cli {
    /// The command line and environment, or exit with clap's message; a value read from an
    /// environment variable that does not parse is blamed on that variable, not on a flag the
    /// user never typed.
    pub fn parse_naming_env() -> Cli {
        use clap::error::{ContextKind, ContextValue};
        use clap::{CommandFactory, FromArgMatches};
        let mut command = Cli::command();
        let matches = match command.try_get_matches_from_mut(std::env::args_os()) {
            Ok(matches) => matches,
            Err(e) => {
                let flag = match e.get(ContextKind::InvalidArg) {
                    Some(ContextValue::String(flag)) => flag.split(' ').next().unwrap_or_default().to_owned(),
                    _ => e.exit(),
                };
                let typed = std::env::args().any(|a| a == flag || a.starts_with(&format!("{flag}=")));
                let env = env_of(&command, flag.trim_start_matches("--")).filter(|_| !typed);
                match env.filter(|var| std::env::var_os(var).is_some()) {
                    Some(var) => {
                        eprintln!(
                            "reviewlock: the environment variable {var} sets {flag}, and its value is refused:"
                        );
                        eprintln!("{e}");
                        std::process::exit(2);
                    }
                    None => e.exit(),
                }
            }
        };
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

/// The environment variable of a long option, in this command or any of its subcommands.
fn env_of(command: &clap::Command, long: &str) -> Option<String> {
    command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))
        .and_then(|a| a.get_env())
        .map(|v| v.to_string_lossy().into_owned())
        .or_else(|| command.get_subcommands().find_map(|c| env_of(c, long)))
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API (the default).
    Serve(Box<ServeConfig>),
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
    /// Serve the protocol's tools to an MCP client over stdio (the client spawns this), calling
    /// a running server's REST API with a team's token. Logs go to stderr.
    Mcp(McpArgs),
    /// A runtime's pre-tool hook: read its payload on stdin, ask whether the agent may write
    /// the files the call would write, answer in the runtime's format. Fails closed: when
    /// reviewlock cannot be asked, the call is blocked (unless `--fail-open`).
    Hook(HookArgs),
    /// Git's own hooks, for writes made any way (a shell included): `install` them, then git
    /// runs `pre-commit` and `pre-push`, which refuse a commit or a push that writes files its
    /// agents may not write. Fail closed: when reviewlock cannot be asked, refused (unless
    /// `--fail-open`).
    #[command(subcommand)]
    Guard(GuardCommand),
    /// For CI before a merge: may this commit land (R17)? Exit 0 if every artifact covering a
    /// file it changes approved a version with its SHA as `ref` (and, with `--range`, no commit
    /// of the range credits an agent refused the files it changes), 1 if not, 2 if it could not
    /// ask.
    Verify(VerifyArgs),
}

#[derive(Debug, Subcommand)]
pub enum GuardCommand {
    /// Write `pre-commit` and `pre-push` into the repository's hooks directory (`core.hooksPath`
    /// respected). A hook already there is kept as `<hook>.local` and runs first. Run again to
    /// update; nothing is installed twice.
    Install,
    /// Git's pre-commit hook: check the staged files (both sides of a rename, deletions too) for
    /// the committing agent: `REVIEWLOCK_AGENT`, else the author's e-mail as an alias, else the
    /// most restricted writer.
    PreCommit(GuardArgs),
    /// Git's pre-push hook: check each commit the remote has not got, for the agents its
    /// `Reviewlock-Agent:` trailers credit (else its author's e-mail, as an alias), against the
    /// files it changes. Reads git's lines on stdin.
    PrePush(PrePushArgs),
}

/// Where the server is and which team's lockouts apply: as the hook's.
#[derive(Debug, Clone, Args)]
pub struct ServerArgs {
    /// The team whose artifacts the files may belong to.
    #[arg(long, env = "REVIEWLOCK_TEAM")]
    pub team: Option<String>,
    /// The server's base URL.
    #[arg(long, env = "REVIEWLOCK_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// A `read` token of the team (an `agent` token may ask only about its own agent).
    #[arg(long, env = "REVIEWLOCK_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Longest wait for each of reviewlock's answers.
    #[arg(long, env = "REVIEWLOCK_TIMEOUT", default_value = "5s", value_parser = parse_duration)]
    pub timeout: Duration,
}

#[derive(Debug, Clone, Args)]
pub struct GuardArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The committing agent, by id; without it, the author's e-mail names it (an alias).
    #[arg(long, env = "REVIEWLOCK_AGENT")]
    pub agent: Option<String>,
    /// Let the commit or push through when reviewlock cannot be asked (unreachable, too slow,
    /// 5xx, a bad token), saying so on stderr. Without it, refused.
    #[arg(long, env = "REVIEWLOCK_FAIL_OPEN")]
    pub fail_open: bool,
}

#[derive(Debug, Clone, Args)]
pub struct PrePushArgs {
    /// The remote's name, as git passes it to pre-push.
    pub remote: Option<String>,
    /// The remote's URL, as git passes it to pre-push (unused).
    pub remote_url: Option<String>,
    #[command(flatten)]
    pub guard: GuardArgs,
}

/// How `verify` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VerifyFormat {
    /// Sentences, for a person.
    Text,
    /// Sentences, and a GitHub Actions `::error file=…::` annotation per refused file.
    Github,
}

#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// The commit that would land: a SHA or any revision git resolves (`HEAD`). For a pull
    /// request, its head commit, not the merge commit CI builds.
    #[arg(long = "ref")]
    pub git_ref: String,
    /// `<base>..<head>`: check the files `git diff <base>...<head>` changes (what the pull
    /// request shows), and each commit of `<base>..<head>` for the agents it credits. Without
    /// it, the files the commit changes against its first parent.
    #[arg(long)]
    pub range: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: VerifyFormat,
    #[command(flatten)]
    pub server: ServerArgs,
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a token and print only its secret, once, on stdout: a team's with `--team`, else
    /// a server-wide admin token.
    Create(TokenCreateArgs),
    /// List live tokens (never their secrets): a team's with `--team`, else the server-wide ones.
    List(TokenListArgs),
    /// Revoke a token of any team, or a server-wide one, by its id.
    Revoke(TokenRevokeArgs),
}

#[derive(Debug, Clone, Args)]
pub struct TokenCreateArgs {
    /// The team whose token this is; without it, the token is a server-wide admin token.
    #[arg(long)]
    pub team: Option<String>,
    /// What the token may do: read, coordinator, user, admin or agent (server-wide: admin).
    #[arg(long, default_value = "admin")]
    pub scope: String,
    /// Who or what holds the token, e.g. `orchestrator` or `alice`.
    #[arg(long)]
    pub name: String,
    /// For scope `agent`: the agent the token acts as.
    #[arg(long)]
    pub agent: Option<String>,
    #[command(flatten)]
    pub database: DatabaseConfig,
}

#[derive(Debug, Clone, Args)]
pub struct TokenListArgs {
    /// List this team's tokens; without it, the server-wide tokens.
    #[arg(long)]
    pub team: Option<String>,
    #[command(flatten)]
    pub database: DatabaseConfig,
}

#[derive(Debug, Clone, Args)]
pub struct TokenRevokeArgs {
    /// The token's id, as `token list` shows it.
    pub id: uuid::Uuid,
    #[command(flatten)]
    pub database: DatabaseConfig,
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The team whose artifacts the files may belong to.
    #[arg(long)]
    pub team: String,
    /// The agent about to write.
    #[arg(long)]
    pub agent: String,
    /// The files about to be written, relative to the repository's root.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The server's base URL.
    #[arg(long, env = "REVIEWLOCK_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// A token of the team (`read`, or the agent's own `agent` token).
    #[arg(long, env = "REVIEWLOCK_TOKEN", hide_env_values = true)]
    pub token: String,
    /// Longest wait for the answer (connecting included).
    #[arg(long, env = "REVIEWLOCK_TIMEOUT", default_value = "2s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Answer from the team's state at or past this event seq (a write's `Reviewlock-Seq`).
    #[arg(long, env = "REVIEWLOCK_MIN_SEQ")]
    pub min_seq: Option<i64>,
}

/// The agent runtimes whose pre-tool hook payloads `reviewlock hook` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Runtime {
    /// Claude Code's `PreToolUse` hook (`.claude/settings.json`).
    ClaudeCode,
    /// Codex CLI's `PreToolUse` hook (`.codex/hooks.json`).
    Codex,
    /// GitHub Copilot CLI's `preToolUse` hook (`.github/hooks/*.json`).
    Copilot,
    /// Cursor's `preToolUse` and `beforeShellExecution` hooks (`.cursor/hooks.json`).
    Cursor,
    /// Gemini CLI's `BeforeTool` hook (`.gemini/settings.json`).
    Gemini,
}

/// What the hook answers for a shell command, whose writes cannot be read reliably from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShellPolicy {
    /// Let shell commands through: the lockout then holds only for the runtime's file tools.
    Allow,
    /// Block every shell command, for agents that must write only through file tools.
    Deny,
}

#[derive(Debug, Clone, Args)]
pub struct HookArgs {
    /// The runtime whose payload arrives on stdin and which reads the answer.
    #[arg(value_enum)]
    pub runtime: Runtime,
    /// The team whose artifacts the files may belong to.
    #[arg(long, env = "REVIEWLOCK_TEAM")]
    pub team: Option<String>,
    /// The agent about to write; without it, the agent the token is bound to (an `agent` token).
    /// With an `agent` token the server refuses any other agent, so a wrong name blocks the
    /// write rather than borrowing another agent's rights.
    #[arg(long, env = "REVIEWLOCK_AGENT")]
    pub agent: Option<String>,
    /// The server's base URL.
    #[arg(long, env = "REVIEWLOCK_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// The agent's own `agent` token (the safe choice), or a `read` token of the team.
    #[arg(long, env = "REVIEWLOCK_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The repository's root, which paths are made relative to; by default `git rev-parse
    /// --show-toplevel` run in the payload's working directory, else that directory.
    #[arg(long, env = "REVIEWLOCK_ROOT")]
    pub root: Option<std::path::PathBuf>,
    /// Longest wait for reviewlock's answer; past it the call is blocked.
    #[arg(long, env = "REVIEWLOCK_TIMEOUT", default_value = "2s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Answer from the team's state at or past this event seq: the `Reviewlock-Seq` of the write
    /// that set up this agent's session (the assignment that spawned it, say), so a replica
    /// that has not yet applied it asks the database rather than miss it.
    #[arg(long, env = "REVIEWLOCK_MIN_SEQ")]
    pub min_seq: Option<i64>,
    /// Shell commands: `allow` (the default) lets them through, `deny` blocks them all. A shell
    /// command's writes cannot be read reliably from its text, so neither checks them.
    #[arg(long, env = "REVIEWLOCK_SHELL", value_enum, default_value = "allow")]
    pub shell: ShellPolicy,
    /// Let the call through when reviewlock cannot be asked (unreachable, too slow, 5xx, a bad
    /// token or payload), saying so on stderr each time. Without it such a call is blocked.
    #[arg(long, env = "REVIEWLOCK_FAIL_OPEN")]
    pub fail_open: bool,
}

#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// The server's base URL.
    #[arg(long, env = "REVIEWLOCK_URL", default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// A token of the team: `coordinator` for a coordinator, `agent` for one agent, `read` to
    /// only read, `user` to resolve escalations and lift lockouts.
    #[arg(long, env = "REVIEWLOCK_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The team the tools act on.
    #[arg(long, env = "REVIEWLOCK_TEAM")]
    pub team: String,
}

/// The database a command works on.
#[derive(Debug, Clone, Args)]
pub struct DatabaseConfig {
    /// Postgres URL (`postgres://user:password@host:port/database`); the database is created if
    /// it does not exist.
    #[arg(long, env = "DATABASE_URL", default_value = "postgres://postgres@127.0.0.1:5432/reviewlock")]
    pub database_url: String,
}

/// The connection pool of a serving process.
#[derive(Debug, Clone, Args)]
pub struct PoolConfig {
    /// Most database connections this process holds (the event listener's included).
    #[arg(long, env = "REVIEWLOCK_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,
    /// How long a request waits for a database connection before it answers 503 `unavailable`.
    #[arg(long, env = "REVIEWLOCK_DB_ACQUIRE_TIMEOUT", default_value = "3s", value_parser = parse_duration)]
    pub db_acquire_timeout: Duration,
}

impl PoolConfig {
    /// What a one-off command (`migrate`, `token`) needs: a connection or two.
    pub const COMMAND: PoolConfig =
        PoolConfig { db_max_connections: 2, db_acquire_timeout: Duration::from_secs(10) };
}

#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on: `host:port`, the host a name or an IP address.
    #[arg(long, env = "REVIEWLOCK_LISTEN", default_value = "127.0.0.1:8080", value_parser = parse_listen)]
    pub listen: String,
    #[command(flatten)]
    pub database: DatabaseConfig,
    #[command(flatten)]
    pub pool: PoolConfig,
    /// The server-wide admin token. When unset and no token exists yet, one is created at first
    /// start and shown once: on stderr when it is a terminal, else in `--admin-token-file`.
    #[arg(long, env = "REVIEWLOCK_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Where the bootstrap admin token's secret is written when stderr is not a terminal (a
    /// service manager, a container): a file only this user can read, never the log stream.
    #[arg(long, env = "REVIEWLOCK_ADMIN_TOKEN_FILE", default_value = "reviewlock-admin-token")]
    pub admin_token_file: std::path::PathBuf,
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
    /// How long sending a response may make no progress (a client that reads nothing of it)
    /// before the connection is dropped. An event stream or long poll that goes on sending
    /// keep-alives is never cut; one whose client stopped reading is.
    #[arg(long, env = "REVIEWLOCK_WRITE_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub write_timeout: Duration,
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
    /// The key webhook secrets and forge tokens are sealed with at rest: 32 random bytes in
    /// base64 (`openssl rand -base64 32`). Without it, no webhook or forge can be set up.
    #[arg(long, env = "REVIEWLOCK_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<String>,
    /// Keys used before a rotation, comma-separated: what they sealed still opens, and is sealed
    /// again with `REVIEWLOCK_SECRET_KEY` at start (docs/webhooks.md, "Key rotation").
    #[arg(long, env = "REVIEWLOCK_SECRET_KEY_PREVIOUS", hide_env_values = true, value_delimiter = ',')]
    pub secret_key_previous: Vec<String>,
    /// The URL people reach this service at (`https://reviewlock.example.com`): commit statuses
    /// link to the board's page of their artifact under it.
    #[arg(long, env = "REVIEWLOCK_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Let webhooks and forges use `http` URLs (for a receiver on a trusted network).
    #[arg(long, env = "REVIEWLOCK_WEBHOOK_ALLOW_HTTP")]
    pub webhook_allow_http: bool,
    /// Let webhooks and forges reach loopback, private and link-local addresses (a receiver
    /// inside your network); refused otherwise, when set up and again at every delivery.
    #[arg(long, env = "REVIEWLOCK_WEBHOOK_ALLOW_PRIVATE")]
    pub webhook_allow_private: bool,
    /// Targets (webhooks, forges) this process delivers to at once; each holds one database
    /// connection while it sends.
    #[arg(long, env = "REVIEWLOCK_DELIVERY_CONCURRENCY", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub delivery_concurrency: u16,
    /// `Host` headers `/mcp` answers, comma-separated (a port may follow a host); others get
    /// 403, so a web page whose name resolves to this server cannot reach the tools (DNS
    /// rebinding). Name the host clients use when the server is not on this machine; empty
    /// accepts any.
    #[arg(
        long,
        env = "REVIEWLOCK_MCP_ALLOWED_HOSTS",
        value_delimiter = ',',
        default_value = "localhost,127.0.0.1,::1"
    )]
    pub mcp_allowed_hosts: Vec<String>,
    /// `Origin` headers `/mcp` accepts from browsers, comma-separated (`https://app.example.com`);
    /// empty (the default) accepts any, and requests without `Origin` always pass.
    #[arg(long, env = "REVIEWLOCK_MCP_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub mcp_allowed_origins: Vec<String>,
    /// Answer checks and unchanged conditional polls from this replica's in-memory lockout
    /// index while it is current (`true`), or always from the database (`false`).
    #[arg(long, env = "REVIEWLOCK_INDEX", default_value_t = true, action = clap::ArgAction::Set)]
    pub index: bool,
    /// The most entries (artifacts, active lockouts, agents, aliases) the index holds, all teams
    /// together; past it the least recently used teams are dropped, and a team larger than it
    /// alone is answered by the database.
    #[arg(long, env = "REVIEWLOCK_INDEX_BUDGET", default_value_t = 1_000_000)]
    pub index_budget: u64,
    /// A team the index has not been asked about for this long is dropped (and read again on
    /// its next check).
    #[arg(long, env = "REVIEWLOCK_INDEX_IDLE", default_value = "10m", value_parser = parse_duration)]
    pub index_idle: Duration,
    /// The longest a check with `min_seq` waits for the index to apply that seq before the
    /// database answers.
    #[arg(long, env = "REVIEWLOCK_INDEX_WAIT", default_value = "100ms", value_parser = parse_duration)]
    pub index_wait: Duration,
}

impl ServeConfig {
    /// The lockout index's settings.
    pub fn index(&self) -> IndexSettings {
        IndexSettings {
            enabled: self.index,
            budget: self.index_budget,
            idle: self.index_idle,
            wait: self.index_wait,
        }
    }

    /// What `/mcp` accepts besides a token.
    pub fn mcp(&self) -> McpSettings {
        let listed = |v: &[String]| v.iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect();
        McpSettings {
            allowed_hosts: listed(&self.mcp_allowed_hosts),
            allowed_origins: listed(&self.mcp_allowed_origins),
        }
    }
}

/// The lockout index's settings (`REVIEWLOCK_INDEX*`).
#[derive(Debug, Clone, Copy)]
pub struct IndexSettings {
    pub enabled: bool,
    /// The most entries held, all teams together.
    pub budget: u64,
    /// A team unused this long is dropped.
    pub idle: Duration,
    /// The longest a check with `min_seq` waits for the index.
    pub wait: Duration,
}

impl Default for IndexSettings {
    fn default() -> Self {
        IndexSettings {
            enabled: true,
            budget: 1_000_000,
            idle: Duration::from_secs(600),
            wait: Duration::from_millis(100),
        }
    }
}

/// What `/mcp` accepts besides a token: the `Host` and `Origin` headers it answers (a browser
/// page on another site resolving its name to this server is refused: DNS rebinding).
#[derive(Debug, Clone)]
pub struct McpSettings {
    /// `Host` values accepted, with or without a port; empty accepts any.
    pub allowed_hosts: Vec<String>,
    /// `Origin` values accepted when a request carries one; empty accepts any.
    pub allowed_origins: Vec<String>,
}

impl Default for McpSettings {
    fn default() -> Self {
        Self {
            allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec(),
            allowed_origins: Vec::new(),
        }
    }
}

/// `host:port`: resolved when the server binds, so a host name such as `localhost` works.
fn parse_listen(s: &str) -> Result<String, String> {
    match s.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => Ok(s.to_owned()),
        _ => Err(format!("'{s}' is not an address like 127.0.0.1:8080 or localhost:8080")),
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
    fn no_subcommand_means_serve_and_takes_serve_options() {
        let cli = Cli::parse_from(["reviewlock"]);
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.rate_limit, crate::rate_limit::RateLimit::new(50.0, 100));
        let cli = Cli::parse_from(["reviewlock", "--listen", "localhost:9000", "--rate-limit", "0"]);
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.listen, "localhost:9000");
        assert!(cli.serve.rate_limit.is_disabled());
        let cli = Cli::parse_from(["reviewlock", "serve", "--listen", "0.0.0.0:9000"]);
        let Some(Command::Serve(c)) = cli.command else { panic!("serve expected") };
        assert_eq!(c.listen, "0.0.0.0:9000");
        assert!(Cli::try_parse_from(["reviewlock", "--listen", "nope"]).is_err());
        assert!(Cli::try_parse_from(["reviewlock", "--listen", "host:99999"]).is_err());
    }

    #[test]
    fn pool_options_belong_to_serve_only() {
        assert!(Cli::try_parse_from(["reviewlock", "migrate", "--db-max-connections", "4"]).is_err());
        assert!(Cli::try_parse_from(["reviewlock", "token", "list", "--db-acquire-timeout", "1s"]).is_err());
        assert!(Cli::try_parse_from(["reviewlock", "serve", "--db-max-connections", "4"]).is_ok());
    }
}
