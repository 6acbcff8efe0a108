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

use crate::config::McpSettings;

/// The streamable HTTP service mounted at `/mcp`: stateless (no session, so any replica answers
/// any call) and answering plain JSON, each call sent to `rest` (the `/v1` routes) as the actor
/// that `/mcp`'s request authenticated as.
pub fn http_service(
    rest: axum::Router,
    settings: &McpSettings,
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
