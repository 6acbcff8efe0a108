//! How a tool call reaches the REST API: in-process through the `/v1` routes (streamable HTTP at
//! `/mcp`), or over HTTP to a running server (`reviewlock mcp` over stdio).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rmcp::ErrorData;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use tower::ServiceExt;

use crate::app::actor::Actor;
use crate::http::preconditions::SEQ;

/// One REST request a tool makes: `path` includes the query.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: Method,
    pub path: String,
    pub body: Option<Value>,
    pub idempotency_key: Option<String>,
}

/// The REST answer: its status and JSON (a problem when it is not a success).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    /// A write's `Reviewlock-Seq`: the team's event seq it committed.
    pub seq: Option<i64>,
}

/// The `Reviewlock-Seq` of a response, if any.
fn seq(headers: &axum::http::HeaderMap) -> Option<i64> {
    headers.get(SEQ)?.to_str().ok()?.parse().ok()
}

/// Whom a tool call acts for: the team its REST paths name and, over `/mcp`, the actor its
/// token authenticated as (the stdio transport's token is checked by the server it calls).
#[derive(Debug, Clone)]
pub struct Session {
    pub team: String,
    pub actor: Option<Actor>,
}

pub trait Rest: Clone + Send + Sync + 'static {
    /// The session of an MCP request; a JSON-RPC error when it has none (a server-wide token
    /// that names no team).
    fn session(&self, context: &RequestContext<RoleServer>) -> Result<Session, ErrorData>;
    /// Sends one REST request; `Err` says why no answer came.
    fn send(&self, session: &Session, call: Call) -> impl Future<Output = Result<Reply, String>> + Send;
}

/// The `/v1` routes of this process, behind admission, called with the actor that `/mcp`'s own
/// request authenticated as (so the token is looked up and rate-limited once per MCP request).
#[derive(Clone)]
pub struct InProcess {
    routes: axum::Router,
}

impl InProcess {
    pub fn new(routes: axum::Router) -> Self {
        Self { routes }
    }
}

impl Rest for InProcess {
    fn session(&self, context: &RequestContext<RoleServer>) -> Result<Session, ErrorData> {
        let parts = context.extensions.get::<axum::http::request::Parts>();
        let actor = parts.and_then(|p| p.extensions.get::<Actor>()).cloned().ok_or_else(|| {
            ErrorData::internal_error("the MCP request carries no authenticated actor", None)
        })?;
        let named = parts.and_then(|p| team_in_query(&p.uri));
        let team = actor.team.clone().or(named).ok_or_else(|| {
            ErrorData::invalid_request(
                "a server-wide token acts on no team by itself: connect to /mcp?team=TEAM",
                None,
            )
        })?;
        Ok(Session { team, actor: Some(actor) })
    }

    async fn send(&self, session: &Session, call: Call) -> Result<Reply, String> {
        let actor = session.actor.clone().ok_or("no actor to act as")?;
        let mut request = Request::builder()
            .method(call.method)
            .uri(&call.path)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(key) = &call.idempotency_key {
            request = request.header("idempotency-key", key);
        }
        let body = call.body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty);
        let mut request = request.body(body).map_err(|e| format!("the request could not be made: {e}"))?;
        // Admission takes this actor instead of authenticating again.
        request.extensions_mut().insert(actor);
        let response = self.routes.clone().oneshot(request).await.map_err(|e| e.to_string())?;
        let (status, seq) = (response.status(), seq(response.headers()));
        let bytes = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok(Reply { status, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null), seq })
    }
}

/// `team=` in `/mcp?team=acme`: the team a server-wide token acts on.
fn team_in_query(uri: &Uri) -> Option<String> {
    uri.query()?.split('&').find_map(|pair| pair.strip_prefix("team=")).map(str::to_owned)
}

/// A running server's REST API, with one team's token (`reviewlock mcp`).
#[derive(Clone)]
pub struct Remote {
    base: Arc<str>,
    authority: Arc<str>,
    host: Arc<str>,
    port: u16,
    token: Arc<str>,
    team: Arc<str>,
}

impl Remote {
    pub fn new(url: &str, token: &str, team: &str) -> Result<Self, String> {
        let base: Uri = url.parse().map_err(|e| format!("--url {url} is not a URL: {e}"))?;
        if base.scheme_str() != Some("http") {
            return Err(
                "--url must be an http:// URL (put a TLS-terminating proxy's local address here)".into()
            );
        }
        let authority = base.authority().ok_or("--url needs a host")?;
        Ok(Self {
            base: url.trim_end_matches('/').into(),
            authority: authority.as_str().into(),
            host: authority.host().trim_start_matches('[').trim_end_matches(']').into(),
            port: authority.port_u16().unwrap_or(80),
            token: token.trim().into(),
            team: team.into(),
        })
    }
}

impl Rest for Remote {
    fn session(&self, _: &RequestContext<RoleServer>) -> Result<Session, ErrorData> {
        Ok(Session { team: self.team.to_string(), actor: None })
    }

    async fn send(&self, _: &Session, call: Call) -> Result<Reply, String> {
        let mut request = Request::builder()
            .method(call.method)
            .uri(format!("{}{}", self.base, call.path))
            .header(header::HOST, &*self.authority)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(key) = &call.idempotency_key {
            request = request.header("idempotency-key", key);
        }
        let body = call.body.map(|b| b.to_string()).unwrap_or_default();
        let request = request.body(Full::new(bytes::Bytes::from(body))).map_err(|e| e.to_string())?;
        let stream = tokio::net::TcpStream::connect((&*self.host, self.port))
            .await
            .map_err(|e| format!("cannot reach reviewlock at {}: {e}", self.base))?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
        tokio::spawn(connection);
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| format!("asking reviewlock at {} failed: {e}", self.base))?;
        let (status, seq) = (response.status(), seq(response.headers()));
        let bytes = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok(Reply { status, body: serde_json::from_slice(&bytes).unwrap_or(Value::Null), seq })
    }
}
