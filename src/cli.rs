//! The commands besides `serve`: bootstrap and recovery straight on the database, and a check
//! for pre-write hooks against a running server, with the client `reviewlock hook` shares.

use std::process::ExitCode;
use std::time::Duration;

use axum::http::{Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::app;
use crate::app::actor::Actor;
use crate::app::unit::{Outcome, Preconditions};
use crate::config::{CheckArgs, DatabaseConfig, PoolConfig, TokenCreateArgs, TokenListArgs, TokenRevokeArgs};
use crate::domain::Scope;
use crate::domain::TeamId;
use crate::error::Error;
use crate::resources::{CheckResult, RefCheckResult};
use crate::store::{Db, tokens};

type Failure = Box<dyn std::error::Error>;

/// Applies the migrations (creating the database if needed) and exits.
pub async fn migrate(database: &DatabaseConfig) -> Result<(), Failure> {
    crate::startup::connect(database, &PoolConfig::COMMAND).await?.close().await;
    Ok(())
}

/// Who the token commands act as: whoever may run the binary on the database, a server-wide
/// admin, recorded as `reviewlock-cli` in the events they cause.
fn operator() -> Actor {
    Actor {
        token_id: None,
        token_name: "reviewlock-cli".into(),
        team: None,
        scope: Scope::Admin,
        agent: None,
        key_owner: uuid::Uuid::nil(),
    }
}

fn team(team: &str) -> Result<TeamId, Failure> {
    TeamId::parse(team).ok_or_else(|| format!("--team {}", TeamId::EXPECTED).into())
}

/// Runs `command` on the database with a small pool, closed afterwards.
async fn on_database<T>(
    database: &DatabaseConfig,
    command: impl AsyncFnOnce(&Db) -> Result<T, Error>,
) -> Result<T, Failure> {
    let pool = Db::new(crate::startup::connect(database, &PoolConfig::COMMAND).await?);
    let result = command(&pool).await;
    pool.close().await;
    result.map_err(|e| describe(&e).into())
}

/// Creates a token straight in the database (a team's, or a server-wide admin token) and
/// returns only its secret, to print once.
pub async fn token_create(args: &TokenCreateArgs) -> Result<String, Failure> {
    let scope = Scope::parse(&args.scope).ok_or_else(|| {
        format!(
            "--scope must be one of {}",
            Scope::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        )
    })?;
    let team = args.team.as_deref().map(team).transpose()?;
    if team.is_none() && (scope != Scope::Admin || args.agent.is_some()) {
        return Err("a server-wide token is an admin token: name a --team for any other scope".into());
    }
    let (actor, pre) = (operator(), Preconditions::default());
    let created = on_database(&args.database, async |pool| match &team {
        Some(team) => {
            app::tokens::create_token(pool, &actor, &pre, team, &args.name, scope, args.agent.as_deref())
                .await
        }
        None => app::tokens::create_server_token(pool, &actor, &pre, &args.name).await,
    })
    .await?;
    match created {
        Outcome::Done(_, created, _) => Ok(created.token),
        Outcome::Replayed { .. } => Err("a token was replayed where none was asked for".into()),
    }
}

/// Prints the live tokens, one a line: id, scope, name (and agent), created. Never a secret.
pub async fn token_list(args: &TokenListArgs) -> Result<(), Failure> {
    let team = args.team.as_deref().map(team).transpose()?;
    let actor = operator();
    let tokens = on_database(&args.database, async |pool| match &team {
        Some(team) => app::tokens::list_tokens(pool, &actor, team).await,
        None => app::tokens::list_server_tokens(pool, &actor).await,
    })
    .await?;
    for t in tokens {
        let agent = t.agent_id.map(|a| format!(" (agent {a})")).unwrap_or_default();
        println!(
            "{}  {:<11}  {}{agent}  created {}",
            t.id,
            t.scope,
            t.name,
            t.created_at.format("%Y-%m-%d %H:%M:%SZ")
        );
    }
    Ok(())
}

/// Revokes a token by id, whether a team's (recorded in its log) or a server-wide one.
pub async fn token_revoke(args: &TokenRevokeArgs) -> Result<(), Failure> {
    let (actor, pre) = (operator(), Preconditions::default());
    on_database(&args.database, async |pool| {
        let token = pool.read(async |conn| Ok::<_, Error>(tokens::find(conn, args.id).await?)).await?;
        let token = token.ok_or_else(|| Error::NotFound(format!("no live token has id '{}'", args.id)))?;
        match token.team_id.as_deref().and_then(TeamId::parse) {
            Some(team) => app::tokens::revoke_token(pool, &actor, &pre, &team, args.id).await,
            None => app::tokens::revoke_server_token(pool, &actor, &pre, args.id).await,
        }
    })
    .await?;
    eprintln!("revoked token {}", args.id);
    Ok(())
}

fn describe(e: &Error) -> String {
    let problem = crate::http::error::problem(e);
    match problem.errors {
        Some(errors) => {
            errors.iter().map(|f| format!("{}: {}", f.field, f.message)).collect::<Vec<_>>().join("; ")
        }
        None => format!("{}: {}", problem.code, problem.detail),
    }
}

/// Asks a running server whether the agent may write these paths: exit 0 if allowed, 1 with
/// the denials on stderr if not, 2 if the question could not be answered.
pub async fn check(args: &CheckArgs) -> ExitCode {
    let checks = Checks { url: &args.url, token: &args.token, timeout: args.timeout, min_seq: args.min_seq };
    match checks.ask(&args.team, Some(&args.agent), &args.paths).await {
        Ok(answer) if answer.allowed => ExitCode::SUCCESS,
        Ok(answer) => {
            for denial in &answer.denials {
                match &denial.artifact {
                    Some(artifact) => {
                        eprintln!("denied ({}) by artifact '{artifact}': {}", denial.code, denial.detail)
                    }
                    None => eprintln!("denied ({}): {}", denial.code, denial.detail),
                }
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("reviewlock check: {e}");
            ExitCode::from(2)
        }
    }
}

/// The one client of `POST /v1/teams/{team}/checks` and `…/ref-checks`, shared by `reviewlock
/// check`, `reviewlock hook`, `reviewlock guard` and `reviewlock verify`: the whole question
/// (connect, send, read the answer) within `timeout`.
pub struct Checks<'a> {
    pub url: &'a str,
    pub token: &'a str,
    pub timeout: Duration,
    /// Sent with each check: the answer reflects the team at or past this seq.
    pub min_seq: Option<i64>,
}

/// Who a check is about (R16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer<'a> {
    /// An agent, by its id.
    Agent(&'a str),
    /// An agent by its id or one of its aliases (a commit author's e-mail address).
    Alias(&'a str),
    /// Nobody named: an `agent` token's own agent, else the most restricted writer.
    Unnamed,
}

impl Checks<'_> {
    /// The server's answer, or why there is none (unreachable, too slow, a refusal of the
    /// question itself, a 5xx): never a guess.
    pub async fn ask(
        &self,
        team: &str,
        agent: Option<&str>,
        paths: &[String],
    ) -> Result<CheckResult, String> {
        self.ask_as(team, agent.map_or(Writer::Unnamed, Writer::Agent), paths).await
    }

    /// As [`Checks::ask`], for a writer named any way.
    pub async fn ask_as(
        &self,
        team: &str,
        writer: Writer<'_>,
        paths: &[String],
    ) -> Result<CheckResult, String> {
        let mut body = match writer {
            Writer::Agent(agent) => json!({ "agent": agent, "paths": paths }),
            Writer::Alias(alias) => json!({ "alias": alias, "paths": paths }),
            Writer::Unnamed => json!({ "paths": paths }),
        };
        if let Some(seq) = self.min_seq {
            body["min_seq"] = json!(seq);
        }
        self.post(&format!("/v1/teams/{team}/checks"), body, "a check's").await
    }

    /// May the commit `sha`, which changes `paths`, land (`POST /v1/teams/{team}/ref-checks`)?
    pub async fn ref_check(&self, team: &str, sha: &str, paths: &[String]) -> Result<RefCheckResult, String> {
        self.post(
            &format!("/v1/teams/{team}/ref-checks"),
            json!({ "ref": sha, "paths": paths }),
            "a ref check's",
        )
        .await
    }

    /// Posts `body` to `route` and reads the 200 answer, all within `timeout`.
    async fn post<T: DeserializeOwned>(&self, route: &str, body: Value, what: &str) -> Result<T, String> {
        match tokio::time::timeout(self.timeout, self.send(route, body, what)).await {
            Ok(answer) => answer,
            Err(_) => Err(format!(
                "the server at {} did not answer within {} ms (--timeout)",
                self.url,
                self.timeout.as_millis()
            )),
        }
    }

    async fn send<T: DeserializeOwned>(&self, route: &str, body: Value, what: &str) -> Result<T, String> {
        let base: Uri = self.url.parse().map_err(|e| format!("--url '{}': {e}", self.url))?;
        if base.scheme_str() != Some("http") {
            return Err(
                "--url must be an http:// URL (put a TLS-terminating proxy's local address here)".into()
            );
        }
        let authority = base.authority().ok_or("--url needs a host")?.clone();
        let uri = format!("{}{route}", self.url.trim_end_matches('/'));
        let body = body.to_string();
        let request = Request::post(uri)
            .header(header::HOST, authority.as_str())
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(bytes::Bytes::from(body)))
            .map_err(|e| format!("cannot build the request: {e}"))?;
        let port = authority.port_u16().unwrap_or(80);
        let stream = tokio::net::TcpStream::connect((authority.host(), port)).await.map_err(|e| {
            format!(
                "cannot reach the server at {}: {e}; is it running? check --url or REVIEWLOCK_URL",
                self.url
            )
        })?;
        let failed = |e: &dyn std::fmt::Display| format!("asking the server at {} failed: {e}", self.url);
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| failed(&e))?;
        tokio::spawn(connection);
        let response = sender.send_request(request).await.map_err(|e| failed(&e))?;
        let status = response.status();
        let bytes = response.into_body().collect().await.map_err(|e| failed(&e))?.to_bytes();
        if status != StatusCode::OK {
            let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            let (code, detail) =
                (answer["code"].as_str().unwrap_or("no code"), answer["detail"].as_str().unwrap_or(""));
            // Which path is at fault and why (e.g. absolute: the hook should relativise it).
            let fields: String = (answer["errors"].as_array().into_iter().flatten())
                .map(|e| {
                    format!(
                        "; {}: {}",
                        e["field"].as_str().unwrap_or("?"),
                        e["message"].as_str().unwrap_or("?")
                    )
                })
                .collect();
            return Err(format!("{} answered {status} {code}: {detail}{fields}", self.url));
        }
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} answered 200 with a body that is not {what}: {e}", self.url))
    }
}
