//! The MCP tools against a real server, with the rmcp client over both transports: streamable
//! HTTP at `/mcp` and `reviewlock mcp` over stdio. README Examples 1 and 3 through tools only,
//! refusals as `isError` results that start with their code and say what to do next, scopes,
//! bad arguments; and a client nobody here wrote (the official Python SDK), when installed.

mod process;

use std::path::Path;
use std::process::Command;

use process::{Server, database_url, serve};
use rmcp::model::{CallToolRequestParams, CallToolResult, GetPromptRequestParams, ReadResourceRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use sqlx::PgPool;

const ADMIN: &str = "rl_mcp_test_admin_token";

type Client = RunningService<RoleClient, ()>;

/// The team `acme` with the README's agents, and a token of each scope.
struct Team {
    coordinator: String,
    read: String,
    user: String,
    /// `runtime-eng`'s own token.
    agent: String,
}

async fn team(server: &Server) -> Team {
    let api = server.client();
    api.request(hyper::Method::PUT, "/v1/teams/acme").bearer(ADMIN).json(json!({})).must().await;
    let token = async |scope: &str, agent: Option<&str>| {
        let body = json!({"name": format!("{scope}-token"), "scope": scope, "agent": agent});
        let reply =
            api.request(hyper::Method::POST, "/v1/teams/acme/tokens").bearer(ADMIN).json(body).must().await;
        reply.body["token"].as_str().unwrap().to_owned()
    };
    let coordinator = token("coordinator", None).await;
    for engineer in ["runtime-eng", "revision-eng", "quality-eng"] {
        let path = format!("/v1/teams/acme/agents/{engineer}");
        api.request(hyper::Method::PUT, &path)
            .bearer(&coordinator)
            .json(json!({"roles": ["engineer"]}))
            .must()
            .await;
    }
    let reviewer = json!({"roles": ["tester"], "can_review": true, "can_author": false});
    api.request(hyper::Method::PUT, "/v1/teams/acme/agents/quality-reviewer")
        .bearer(&coordinator)
        .json(reviewer)
        .must()
        .await;
    Team {
        read: token("read", None).await,
        user: token("user", None).await,
        agent: token("agent", Some("runtime-eng")).await,
        coordinator,
    }
}

async fn over_http(server: &Server, token: &str) -> Client {
    // rmcp's client is reqwest's, built with reviewlock's TLS: it needs the process's provider.
    reviewlock::outbound::install_tls_provider();
    let config =
        StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", server.url)).auth_header(token);
    ().serve(StreamableHttpClientTransport::from_config(config)).await.expect("an MCP session over /mcp")
}

async fn over_stdio(server: &Server, token: &str) -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_reviewlock")).configure(|c| {
        c.arg("mcp")
            .env("REVIEWLOCK_URL", &server.url)
            .env("REVIEWLOCK_TOKEN", token)
            .env("REVIEWLOCK_TEAM", "acme");
    });
    ().serve(TokioChildProcess::new(command).unwrap()).await.expect("an MCP session with `reviewlock mcp`")
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    let params = CallToolRequestParams::new(tool).with_arguments(arguments);
    client.call_tool(params).await.unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The structured content of a successful call.
async fn ok(client: &Client, tool: &'static str, arguments: Value) -> Value {
    let result = call(client, tool, arguments).await;
    assert_ne!(result.is_error, Some(true), "{tool} refused: {}", text(&result));
    result.structured_content.expect("structured content")
}

/// The text of a refused call, which must be an `isError` result.
async fn refused(client: &Client, tool: &'static str, arguments: Value) -> String {
    let result = call(client, tool, arguments).await;
    assert_eq!(result.is_error, Some(true), "{tool} was not refused: {}", text(&result));
    text(&result)
}

fn text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect()
}

/// Both examples of the README, through tools only.
/// `listed`: the tools the coordinator is shown.
async fn examples(client: &Client, listed: &[&str]) {
    let mut names: Vec<String> =
        client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.into()).collect();
    names.sort();
    assert_eq!(names, listed);

    // Example 1: reject → locked out → assign another → approve.
    let created = ok(
        client,
        "create_artifact",
        json!({"key": "auth", "title": "Authentication module",
        "paths": ["src/auth/**"], "author": "runtime-eng", "ref": "3f2a9c1"}),
    )
    .await;
    assert_eq!(created["state"], "in_review");
    let rejected = ok(
        client,
        "review_version",
        json!({"key": "auth", "n": 1, "reviewer": "quality-reviewer",
        "verdict": "reject", "grounds": "quality", "reason": "Error handling is missing.",
        "remedy": {"action": "reassign"}}),
    )
    .await;
    assert_eq!(rejected["artifact"]["state"], "changes_requested");
    assert_eq!(rejected["artifact"]["lockouts"][0]["agent"], "runtime-eng");
    let refusal = refused(client, "assign_reviser", json!({"key": "auth", "agent": "runtime-eng"})).await;
    assert!(refusal.starts_with("agent_locked_out: "), "{refusal}");
    assert!(
        refusal.contains("choose one of eligible_agents: [\"quality-eng\", \"revision-eng\"]"),
        "{refusal}"
    );
    let check =
        ok(client, "check_write", json!({"agent": "runtime-eng", "paths": ["src/auth/login.rs"]})).await;
    assert_eq!(check["allowed"], false);
    let submitted = refused(client, "submit_version", json!({"key": "auth", "author": "revision-eng"})).await;
    assert!(
        submitted.starts_with("not_assignee: ") && submitted.contains("assign a reviser first"),
        "{submitted}"
    );
    let assigned = ok(client, "assign_reviser", json!({"key": "auth", "agent": "revision-eng"})).await;
    assert_eq!(assigned["state"], "in_revision");
    let version = ok(
        client,
        "submit_version",
        json!({"key": "auth", "author": "revision-eng", "ref": "8b41d07",
        "idempotency_key": "auth-v2"}),
    )
    .await;
    assert_eq!(version["number"], 2);
    // A retry with the same key replays the answer instead of submitting again.
    let replayed = ok(
        client,
        "submit_version",
        json!({"key": "auth", "author": "revision-eng", "ref": "8b41d07",
        "idempotency_key": "auth-v2"}),
    )
    .await;
    assert_eq!(replayed["number"], 2);
    let approved = ok(
        client,
        "review_version",
        json!({"key": "auth", "n": 2, "reviewer": "quality-reviewer",
        "verdict": "approve"}),
    )
    .await;
    assert_eq!(approved["artifact"]["state"], "approved");
    assert_eq!(approved["artifact"]["lockouts"], json!([]));
    let events = ok(client, "list_events", json!({"after": 0})).await;
    let types: Vec<&str> =
        events["items"].as_array().unwrap().iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(
        types[types.len() - 5..],
        ["artifact.created", "review.rejected", "assignment.created", "version.submitted", "review.approved"]
    );

    // Example 3: every eligible agent locked out → the user decides.
    ok(client, "create_artifact", json!({"key": "billing", "title": "Billing", "author": "runtime-eng"}))
        .await;
    for (n, next) in [(1, "revision-eng"), (2, "quality-eng")] {
        let rejected = ok(
            client,
            "review_version",
            json!({"key": "billing", "n": n, "reviewer": "quality-reviewer",
            "verdict": "reject", "reason": "Still wrong.", "remedy": {"action": "reassign"}}),
        )
        .await;
        assert_eq!(rejected["artifact"]["state"], "changes_requested");
        ok(client, "assign_reviser", json!({"key": "billing", "agent": next})).await;
        let version = ok(client, "submit_version", json!({"key": "billing", "author": next})).await;
        assert_eq!(version["number"], n + 1);
    }
    let last = ok(
        client,
        "review_version",
        json!({"key": "billing", "n": 3, "reviewer": "quality-reviewer",
        "verdict": "reject", "reason": "Still wrong.", "remedy": {"action": "reassign"}}),
    )
    .await;
    assert_eq!(last["artifact"]["state"], "deadlocked");
    let escalations = ok(client, "list_escalations", json!({})).await;
    assert_eq!(
        escalations["items"][0]["details"]["authors"],
        json!(["runtime-eng", "revision-eng", "quality-eng"])
    );
    let id = escalations["items"][0]["id"].as_i64().unwrap();
    let refusal = refused(client, "assign_reviser", json!({"key": "billing", "agent": "runtime-eng"})).await;
    assert!(refusal.starts_with("deadlocked: "), "{refusal}");
    assert!(refusal.contains(&format!("the user must resolve escalation {id}")), "{refusal}");

    // The artifact's status as a resource, and the prompt for a rejection.
    let uri = "reviewlock://teams/acme/artifacts/billing";
    let resource = client.read_resource(ReadResourceRequestParams::new(uri)).await.unwrap();
    let body = serde_json::to_value(&resource.contents[0]).unwrap();
    let status: Value = serde_json::from_str(body["text"].as_str().unwrap()).unwrap();
    assert_eq!(status["state"], "deadlocked");
    let listed = client.list_all_resources().await.unwrap();
    assert!(listed.iter().any(|r| r.uri == uri), "{listed:?}");
    let mut arguments = serde_json::Map::new();
    arguments.insert("key".into(), json!("billing"));
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("handle_rejection").with_arguments(arguments))
        .await
        .unwrap();
    let prompt = serde_json::to_string(&prompt.messages).unwrap();
    assert!(prompt.contains("assign_reviser") && prompt.contains("state `deadlocked`"), "{prompt}");
}

fn sorted_tools() -> Vec<&'static str> {
    let mut names = reviewlock::mcp::TOOL_NAMES.to_vec();
    names.sort();
    names
}

#[sqlx::test]
async fn the_examples_run_through_tools_over_streamable_http(pool: PgPool) {
    let server = serve(&database_url(&pool), ADMIN).await;
    let team = team(&server).await;
    let client = over_http(&server, &team.coordinator).await;
    // Over /mcp the token's scope is known: a coordinator is not shown the user's tools.
    let user_tools = ["lift_lockout", "resolve_escalation"];
    let listed: Vec<&str> = sorted_tools().into_iter().filter(|t| !user_tools.contains(t)).collect();
    examples(&client, &listed).await;
    client.cancel().await.unwrap();
}

#[sqlx::test]
async fn the_examples_run_through_tools_over_stdio(pool: PgPool) {
    let server = serve(&database_url(&pool), ADMIN).await;
    let team = team(&server).await;
    let client = over_stdio(&server, &team.coordinator).await;
    // Over stdio the server called decides each call: every tool is listed.
    examples(&client, &sorted_tools()).await;
    client.cancel().await.unwrap();
}

#[sqlx::test]
async fn scopes_bound_the_tools_and_bad_arguments_are_named(pool: PgPool) {
    let server = serve(&database_url(&pool), ADMIN).await;
    let team = team(&server).await;
    let coordinator = over_http(&server, &team.coordinator).await;
    ok(&coordinator, "create_artifact", json!({"key": "auth", "title": "Auth", "author": "runtime-eng"}))
        .await;

    // A read token is shown the read tools only, and a write is refused all the same.
    let read = over_http(&server, &team.read).await;
    let mut names: Vec<String> =
        read.list_all_tools().await.unwrap().into_iter().map(|t| t.name.into()).collect();
    names.sort();
    assert_eq!(
        names,
        ["check_write", "get_artifact", "list_artifacts", "list_escalations", "list_events", "list_lockouts"]
    );
    let refusal =
        refused(&read, "create_artifact", json!({"key": "x", "title": "X", "author": "runtime-eng"})).await;
    assert!(refusal.starts_with("forbidden: "), "{refusal}");
    assert_eq!(ok(&read, "get_artifact", json!({"key": "auth"})).await["state"], "in_review");
    let tools = read.list_all_tools().await.unwrap();
    let get = tools.iter().find(|t| t.name == "get_artifact").unwrap();
    assert_eq!(get.annotations.as_ref().unwrap().read_only_hint, Some(true));

    // An agent token acts only as its agent, over stdio too.
    let agent = over_stdio(&server, &team.agent).await;
    let refusal = refused(
        &agent,
        "review_version",
        json!({"key": "auth", "n": 1, "reviewer": "quality-reviewer",
        "verdict": "approve"}),
    )
    .await;
    assert!(refusal.starts_with("forbidden: "), "{refusal}");
    // A user token may not assign: the coordinator's tools are not its.
    let user = over_http(&server, &team.user).await;
    let refusal = refused(&user, "assign_reviser", json!({"key": "auth", "agent": "revision-eng"})).await;
    assert!(refusal.starts_with("forbidden: "), "{refusal}");

    // A missing path argument is a malformed call: a JSON-RPC error naming it.
    let params = CallToolRequestParams::new("get_artifact").with_arguments(serde_json::Map::new());
    let error = coordinator.call_tool(params).await.unwrap_err().to_string();
    assert!(error.contains("`key` is required"), "{error}");
    // A value the API refuses is a refusal naming the field, and what to do.
    let refusal = refused(
        &coordinator,
        "review_version",
        json!({"key": "auth", "n": 1,
        "reviewer": "quality-reviewer", "verdict": "maybe"}),
    )
    .await;
    assert!(refusal.contains("verdict") && refusal.contains("Next: correct the arguments"), "{refusal}");
    for client in [coordinator, read, agent, user] {
        client.cancel().await.unwrap();
    }
}

#[sqlx::test]
async fn mcp_needs_a_token_and_an_allowed_host(pool: PgPool) {
    // Only this host name is answered: the client's 127.0.0.1 is one a rebinding page could use.
    let server = process::Serve::new(&database_url(&pool), ADMIN)
        .env("REVIEWLOCK_MCP_ALLOWED_HOSTS", "reviewlock.internal")
        .start()
        .await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let api = server.client();
    let anonymous = api
        .request(hyper::Method::POST, "/mcp")
        .header("accept", "application/json, text/event-stream")
        .json(initialize.clone())
        .send()
        .await
        .unwrap();
    assert!(anonymous.is_problem(401, "unauthenticated"), "{anonymous:?}");
    let rebound = api
        .request(hyper::Method::POST, "/mcp")
        .bearer(ADMIN)
        .header("accept", "application/json, text/event-stream")
        .json(initialize)
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status, 403, "{rebound:?}");
    assert!(rebound.bytes.starts_with(b"Forbidden: Host header is not allowed"), "{rebound:?}");
}

/// The official Python SDK (`mcp`, pinned in `.ci/run`), which nobody here wrote, lists the
/// tools and calls one over streamable HTTP with a bearer token.
#[sqlx::test]
async fn the_python_sdk_lists_and_calls_tools(pool: PgPool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join("target/mcp-python/bin/python");
    if !python.exists() {
        assert!(std::env::var_os("CI").is_none(), "{} is missing: .ci/run installs it", python.display());
        eprintln!("skipped: {} is missing (.ci/run installs it)", python.display());
        return;
    }
    let server = serve(&database_url(&pool), ADMIN).await;
    let team = team(&server).await;
    let coordinator = over_http(&server, &team.coordinator).await;
    ok(&coordinator, "create_artifact", json!({"key": "auth", "title": "Auth", "author": "runtime-eng"}))
        .await;
    let output = Command::new(&python)
        .arg(root.join("tests/mcp_python_sdk.py"))
        .env("REVIEWLOCK_URL", &server.url)
        .env("REVIEWLOCK_TOKEN", &team.coordinator)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the Python SDK failed:\n{stdout}\n{stderr}");
    assert_eq!(stdout.trim(), "11 tools; get_artifact auth: in_review", "{stderr}");
}
