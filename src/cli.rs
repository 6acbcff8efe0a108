//! The commands besides `serve`: bootstrap and recovery straight on the database, and a check
//! for pre-write hooks against a running server.

use std::process::ExitCode;

use axum::http::{Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use crate::app::actor::{Actor, Scope};
use crate::app::unit::{Outcome, Preconditions};
use crate::config::{CheckArgs, DatabaseConfig, TokenCreateArgs};
use crate::error::Error;

type Failure = Box<dyn std::error::Error>;

/// Applies the migrations (creating the database if needed) and exits.
pub async fn migrate(database: &DatabaseConfig) -> Result<(), Failure> {
    crate::connect(database).await?.close().await;
    Ok(())
}

/// Creates a team token straight in the database and prints only its secret, once.
pub async fn token_create(args: &TokenCreateArgs) -> Result<String, Failure> {
    let pool = crate::connect(&args.database).await?;
    let scope = Scope::parse(&args.scope)
        .ok_or_else(|| format!("scope must be one of {}", Scope::ALL.map(Scope::as_str).join(", ")))?;
    let actor = Actor {
        token_id: None,
        token_name: "reviewlock-cli".into(),
        team: None,
        scope: Scope::Admin,
        agent: None,
        key_owner: uuid::Uuid::nil(),
    };
    let created = crate::app::teams::create_token(
        &crate::store::Db::new(pool.clone()),
        &actor,
        &Preconditions::default(),
        &crate::domain::TeamId::parse(&args.team)
            .ok_or_else(|| format!("team {}", crate::domain::TeamId::EXPECTED))?,
        &args.name,
        scope,
        args.agent.as_deref(),
    )
    .await
    .map_err(|e| describe(&e))?;
    pool.close().await;
    match created {
        Outcome::Done(_, created) => Ok(created.token.unwrap_or_default()),
        Outcome::Replayed { .. } => Err("a token was replayed where none was asked for".into()),
    }
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
    match ask(args).await {
        Ok(answer) if answer["allowed"] == true => ExitCode::SUCCESS,
        Ok(answer) => {
            for denial in answer["denials"].as_array().into_iter().flatten() {
                let artifact = denial["artifact"].as_str().unwrap_or("-");
                eprintln!(
                    "denied: {artifact}: {} ({})",
                    denial["detail"].as_str().unwrap_or(""),
                    denial["code"]
                );
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("reviewlock check: {e}");
            ExitCode::from(2)
        }
    }
}

async fn ask(args: &CheckArgs) -> Result<Value, Failure> {
    let base: Uri = args.url.parse()?;
    if base.scheme_str() != Some("http") {
        return Err("--url must be an http:// URL (put a TLS-terminating proxy's local address here)".into());
    }
    let authority = base.authority().ok_or("--url needs a host")?.clone();
    let uri = format!("{}/v1/teams/{}/checks", args.url.trim_end_matches('/'), args.team);
    let body = json!({ "agent": args.agent, "paths": args.paths }).to_string();
    let request = Request::post(uri)
        .header(header::HOST, authority.as_str())
        .header(header::AUTHORIZATION, format!("Bearer {}", args.token))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(bytes::Bytes::from(body)))?;
    let port = authority.port_u16().unwrap_or(80);
    let stream = tokio::net::TcpStream::connect((authority.host(), port)).await?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(connection);
    let response = sender.send_request(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let answer: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status != StatusCode::OK {
        let detail = answer["detail"].as_str().unwrap_or("no detail");
        // Which path is at fault and why (e.g. absolute: the hook should relativise it).
        let fields: Vec<String> = (answer["errors"].as_array().into_iter().flatten())
            .map(|e| {
                format!("; {}: {}", e["field"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or("?"))
            })
            .collect();
        return Err(format!(
            "the server answered {status}: {} ({detail}{})",
            answer["code"],
            fields.concat()
        )
        .into());
    }
    Ok(answer)
}
