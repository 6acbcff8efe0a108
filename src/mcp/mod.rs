//! MCP (Model Context Protocol): the protocol's REST API as tools for LLM coordinators, over
//! two transports with one tool set. `/mcp` (streamable HTTP, stateless, in the same router and
//! behind the same token admission as `/v1`) sends each tool call through the REST routes
//! in-process; `reviewlock mcp` (stdio, spawned by a client) sends it to a running server over
//! HTTP. Either way a tool's input is the REST body (plus the path's and query's parameters),
//! its result the REST JSON, and a refusal the REST problem, so no rule is decided here.

mod refusals;
pub mod rest;
mod server;
pub mod stdio;
mod tools;

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

pub use server::Reviewlock;
pub use tools::TOOL_NAMES;

/// What `/mcp` accepts besides a token: the `Host` and `Origin` headers it answers (a browser
/// page on another site resolving its name to this server is refused: DNS rebinding).
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// `Host` values accepted, with or without a port; empty accepts any.
    pub allowed_hosts: Vec<String>,
    /// `Origin` values accepted when a request carries one; empty accepts any.
    pub allowed_origins: Vec<String>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec(),
            allowed_origins: Vec::new(),
        }
    }
}

/// The streamable HTTP service mounted at `/mcp`: stateless (no session, so any replica answers
/// any call) and answering plain JSON, each call sent to `rest` (the `/v1` routes) as the actor
/// that `/mcp`'s request authenticated as.
pub fn http_service(
    rest: axum::Router,
    settings: &HttpSettings,
) -> StreamableHttpService<Reviewlock<rest::InProcess>, NeverSessionManager> {
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None);
    config = match settings.allowed_hosts.is_empty() {
        true => config.disable_allowed_hosts(),
        false => config.with_allowed_hosts(settings.allowed_hosts.clone()),
    };
    config = config.with_allowed_origins(settings.allowed_origins.clone());
    let rest = rest::InProcess::new(rest);
    StreamableHttpService::new(
        move || Ok(Reviewlock::new(rest.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}
