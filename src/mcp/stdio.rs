//! `reviewlock mcp`: the tools over stdio, for a client that spawns a process per server. It
//! calls a running server's REST API with one token, so the agent's machine needs no database
//! credentials. Logs go to stderr: stdout carries only the protocol.

use rmcp::ServiceExt;

use super::Reviewlock;
use super::rest::Remote;
use crate::config::McpArgs;

pub async fn run(args: &McpArgs) -> Result<(), Box<dyn std::error::Error>> {
    let remote = Remote::new(&args.url, &args.token, &args.team)?;
    tracing::info!(url = %args.url, team = %args.team, "reviewlock MCP server on stdio");
    let running = Reviewlock::new(remote).serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
