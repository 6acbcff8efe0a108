//! The MCP server: tools, the artifact resources and the `handle_rejection` prompt, over any
//! [`Rest`] (in-process at `/mcp`, or a remote server for `reviewlock mcp`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use axum::http::Method;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate, Role, ServerCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Map, Value};

use super::refusals;
use super::rest::{Call, Rest, Session};
use super::tools::{self, LISTED, ToolSpec};

use crate::domain::Code;

/// The URI of an artifact's status resource.
const RESOURCE: &str = "reviewlock://teams/{team}/artifacts/{key}";

const INSTRUCTIONS: &str = "reviewlock enforces the reviewer rejection lockout protocol. When a reviewer \
rejects a version, everyone credited on it is locked out of the next one: before spawning a reviser, call \
assign_reviser with an agent from get_artifact's eligible_agents, and never spawn an agent it refuses. Record \
every verdict with review_version. A refusal's text starts with its code and says what to do next; \
`deadlocked` means the user must decide (resolve_escalation needs a user token). The prompt handle_rejection \
walks through the steps.";

#[derive(Clone)]
pub struct Reviewlock<R> {
    rest: R,
    /// The highest seq a write of this session committed, by team: sent as `min_seq` with its
    /// checks (`check_write`), so they see the session's own writes through any replica. A
    /// `reviewlock mcp` (stdio) session lasts as long as its process; over `/mcp`, served without
    /// sessions, each call starts empty, and its REST calls go in-process to the replica that
    /// committed the writes, which answers its checks at or past them anyway.
    seqs: Arc<Mutex<HashMap<String, i64>>>,
}

impl<R: Rest> Reviewlock<R> {
    pub fn new(rest: R) -> Self {
        Self { rest, seqs: Arc::default() }
    }

    /// The artifact's status, or `None` when it cannot be read (the caller explains without it).
    async fn artifact(&self, session: &Session, key: &str) -> Option<Value> {
        let path = format!("/v1/teams/{}/artifacts/{}", encode(&session.team), encode(key));
        let call = Call { method: Method::GET, path, body: None, idempotency_key: None };
        self.rest.send(session, call).await.ok().filter(|r| r.status.is_success()).map(|r| r.body)
    }

    async fn call(
        &self,
        tool: &ToolSpec,
        session: &Session,
        mut args: Map<String, Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let key = args.get("key").and_then(Value::as_str).map(str::to_owned);
        let mut path = tool.path.replace("{team}", &encode(&session.team));
        while let Some(start) = path.find('{') {
            let end = start + path[start..].find('}').expect("a spec path closes its braces");
            let name = path[start + 1..end].to_owned();
            let value = match args.remove(&name) {
                Some(Value::String(s)) if !s.is_empty() => encode(&s),
                Some(Value::Number(n)) => n.to_string(),
                Some(other) => {
                    return Err(bad_argument(
                        tool,
                        &format!("`{name}` must be a string or a number, not {other}"),
                    ));
                }
                None => return Err(bad_argument(tool, &format!("`{name}` is required"))),
            };
            path.replace_range(start..=end, &value);
        }
        let idempotency_key = match args.remove("idempotency_key") {
            None | Some(Value::Null) => None,
            Some(Value::String(k)) if !tool.read_only => Some(k),
            Some(_) if tool.read_only => return Err(bad_argument(tool, "a read takes no `idempotency_key`")),
            Some(other) => {
                return Err(bad_argument(tool, &format!("`idempotency_key` must be a string, not {other}")));
            }
        };
        let body = match tool.method {
            Method::GET => {
                let mut query = Vec::new();
                for (name, value) in &args {
                    let value = match value {
                        Value::String(s) => s.clone(),
                        Value::Number(_) | Value::Bool(_) => value.to_string(),
                        Value::Null => continue,
                        other => {
                            return Err(bad_argument(
                                tool,
                                &format!("`{name}` must be a string or a number, not {other}"),
                            ));
                        }
                    };
                    query.push(format!("{}={}", encode(name), encode(&value)));
                }
                if !query.is_empty() {
                    path = format!("{path}?{}", query.join("&"));
                }
                None
            }
            Method::DELETE if !args.is_empty() => {
                let names: Vec<&String> = args.keys().collect();
                return Err(bad_argument(
                    tool,
                    &format!("takes no other arguments than its path's; got {names:?}"),
                ));
            }
            Method::DELETE => None,
            // A `min_seq` left out or sent as `null` (as clients send optional fields) is the
            // session's own.
            _ if tool.name == "check_write" && args.get("min_seq").is_none_or(Value::is_null) => {
                let known =
                    self.seqs.lock().unwrap_or_else(PoisonError::into_inner).get(&session.team).copied();
                if let Some(seq) = known {
                    args.insert("min_seq".into(), seq.into());
                }
                Some(Value::Object(args))
            }
            _ => Some(Value::Object(args)),
        };
        let call = Call { method: tool.method.clone(), path, body, idempotency_key };
        match self.rest.send(session, call).await {
            Err(why) => Ok(refusals::unanswered(&why)),
            Ok(reply) if reply.status.is_success() => {
                if let Some(seq) = reply.seq {
                    let mut seqs = self.seqs.lock().unwrap_or_else(PoisonError::into_inner);
                    let known = seqs.entry(session.team.clone()).or_default();
                    *known = (*known).max(seq);
                }
                Ok(CallToolResult::structured(reply.body))
            }
            Ok(reply) => {
                let artifact = match (reply.body["code"].as_str(), &key) {
                    (Some(code), Some(key)) if Code::parse(code).is_some_and(refusals::needs_status) => {
                        self.artifact(session, key).await
                    }
                    _ => None,
                };
                Ok(refusals::result(&reply.body, artifact.as_ref()))
            }
        }
    }
}

/// A malformed call: a JSON-RPC error (a refusal of the protocol is a tool result instead).
fn bad_argument(tool: &ToolSpec, why: &str) -> ErrorData {
    ErrorData::invalid_params(format!("{}: {why} (tools/list gives its input schema)", tool.name), None)
}

/// Percent-encodes a path segment or query value (an artifact key may hold `/`).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn artifact_uri(team: &str, key: &str) -> String {
    format!("reviewlock://teams/{team}/artifacts/{key}")
}

impl<R: Rest> ServerHandler for Reviewlock<R> {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(
            ServerCapabilities::builder().enable_tools().enable_resources().enable_prompts().build(),
        )
        .with_server_info(Implementation::new("reviewlock", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Over /mcp the token's scope is known: list only what it may call (a read token gets
        // the read tools). Over stdio the server that is called decides, tool by tool.
        let scope = self.rest.session(&context).ok().and_then(|s| s.actor).map(|a| a.scope);
        let tools = LISTED
            .iter()
            .filter(|(spec, _)| scope.is_none_or(|scope| tools::allowed(spec, scope)))
            .map(|(_, tool)| tool.clone())
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = tools::find(&request.name).ok_or_else(|| {
            ErrorData::invalid_params(
                format!("no tool is named {}; tools/list names them", request.name),
                None,
            )
        })?;
        let session = self.rest.session(&context)?;
        let result = self.call(tool, &session, request.arguments.unwrap_or_default()).await?;
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let session = self.rest.session(&context)?;
        let path = format!("/v1/teams/{}/artifacts?limit=500", encode(&session.team));
        let call = Call { method: Method::GET, path, body: None, idempotency_key: None };
        let reply = self.rest.send(&session, call).await.map_err(|e| ErrorData::internal_error(e, None))?;
        if !reply.status.is_success() {
            return Err(ErrorData::invalid_request(refusal_text(&reply.body), None));
        }
        let resources = (reply.body["items"].as_array().into_iter().flatten())
            .filter_map(|a| {
                let key = a["key"].as_str()?;
                Some(
                    Resource::new(artifact_uri(&session.team, key), key)
                        .with_title(a["title"].as_str().unwrap_or(key))
                        .with_description(format!("artifact {key}: its state, lockouts and eligible agents"))
                        .with_mime_type("application/json"),
                )
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new(RESOURCE, "artifact")
            .with_description(
                "An artifact's status: state, current version, lockouts, eligible agents, escalation",
            )
            .with_mime_type("application/json");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let mut session = self.rest.session(&context)?;
        let (team, key) = request
            .uri
            .strip_prefix("reviewlock://teams/")
            .and_then(|rest| rest.split_once("/artifacts/"))
            .ok_or_else(|| {
                ErrorData::resource_not_found(format!("{} is not of the form {RESOURCE}", request.uri), None)
            })?;
        session.team = team.to_owned();
        let path = format!("/v1/teams/{}/artifacts/{}", encode(team), encode(key));
        let call = Call { method: Method::GET, path, body: None, idempotency_key: None };
        let reply = self.rest.send(&session, call).await.map_err(|e| ErrorData::internal_error(e, None))?;
        if !reply.status.is_success() {
            return Err(ErrorData::resource_not_found(refusal_text(&reply.body), None));
        }
        let contents = ResourceContents::text(reply.body.to_string(), request.uri.clone())
            .with_mime_type("application/json");
        Ok(ReadResourceResponse::Complete(ReadResourceResult::new(vec![contents])))
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let key =
            PromptArgument::new("key").with_description("the rejected artifact's key").with_required(true);
        let prompt = Prompt::new(
            "handle_rejection",
            Some("Walks a coordinator through what to do after a reviewer rejected a version"),
            Some(vec![key]),
        );
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "handle_rejection" {
            return Err(ErrorData::invalid_params(format!("no prompt is named {}", request.name), None));
        }
        let key = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("key"))
            .and_then(Value::as_str)
            .ok_or_else(|| ErrorData::invalid_params("handle_rejection needs the argument `key`", None))?
            .to_owned();
        let session = self.rest.session(&context)?;
        let status = match self.artifact(&session, &key).await {
            Some(a) => format!(
                "Its status now: state `{}`, locked out {}, eligible_agents {}, escalation {}.",
                a["state"].as_str().unwrap_or("?"),
                a["lockouts"].as_array().map_or("[]".into(), |l| {
                    format!("{:?}", l.iter().filter_map(|x| x["agent"].as_str()).collect::<Vec<_>>())
                }),
                a["eligible_agents"],
                a["escalation"]["id"].as_i64().map_or("none".into(), |id| id.to_string()),
            ),
            None => "Its status could not be read: call get_artifact first.".to_owned(),
        };
        let text = format!(
            "A reviewer rejected the artifact `{key}` of team `{team}`. {status}\n\n\
             Follow the reviewer rejection lockout protocol with the reviewlock tools:\n\
             1. Call get_artifact with key `{key}`: everyone in `lockouts` may not write the next version.\n\
             2. If `state` is `deadlocked`, stop: tell the user that escalation `escalation.id` needs their decision \
             (only a user token may call resolve_escalation). Do not assign anyone.\n\
             3. Otherwise choose the reviser from `eligible_agents` (respect the remedy: a named agent, or the \
             expertise asked for) and call assign_reviser. If it is refused, read the refusal's next step and \
             choose again; never spawn an agent that was refused.\n\
             4. Spawn only the assigned agent; before it writes files, check_write tells whether it may.\n\
             5. When it is done, call submit_version with it as `author`, then have a reviewer who is not credited \
             on the version call review_version on the new version number.\n\
             6. Repeat from step 1 on every rejection; an approval clears the lockouts.",
            team = session.team,
        );
        let result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(format!("what to do about the rejection of {key}"));
        Ok(GetPromptResponse::Complete(result))
    }
}

fn refusal_text(problem: &Value) -> String {
    format!(
        "{}: {}",
        problem["code"].as_str().unwrap_or("internal"),
        problem["detail"].as_str().unwrap_or("the server gave no detail")
    )
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use axum::http::StatusCode;
    use serde_json::json;

    use super::*;
    use crate::mcp::rest::Reply;

    /// A REST API that answers each call with the next reply scripted, and keeps every call it
    /// was sent with its session's team.
    #[derive(Clone, Default)]
    struct Scripted {
        replies: Arc<Mutex<VecDeque<Result<Reply, String>>>>,
        sent: Arc<Mutex<Vec<(String, Call)>>>,
    }

    impl Rest for Scripted {
        fn session(&self, _: &RequestContext<RoleServer>) -> Result<Session, ErrorData> {
            unreachable!("these tests give each call its session")
        }

        async fn send(&self, session: &Session, call: Call) -> Result<Reply, String> {
            self.sent.lock().unwrap().push((session.team.clone(), call));
            self.replies.lock().unwrap().pop_front().expect("a reply scripted for each call")
        }
    }

    /// One MCP session's server, and the REST API it calls.
    fn session() -> (Reviewlock<Scripted>, Scripted) {
        let rest = Scripted::default();
        (Reviewlock::new(rest.clone()), rest)
    }

    /// Calls `tool` as team `team`, the REST API answering `reply`; the call it made.
    async fn call(
        server: &Reviewlock<Scripted>,
        rest: &Scripted,
        team: &str,
        tool: &str,
        args: Value,
        reply: Result<Reply, String>,
    ) -> Call {
        rest.replies.lock().unwrap().push_back(reply);
        let Value::Object(args) = args else { panic!("arguments are an object") };
        let session = Session { team: team.into(), actor: None };
        server.call(tools::find(tool).unwrap(), &session, args).await.unwrap();
        let (sent_as, sent) = rest.sent.lock().unwrap().pop().expect("the tool called the REST API");
        assert_eq!(sent_as, team);
        sent
    }

    /// `create_artifact` as team `team`, answered `status` with `Reviewlock-Seq: seq`.
    async fn write(
        server: &Reviewlock<Scripted>,
        rest: &Scripted,
        team: &str,
        status: u16,
        seq: Option<i64>,
    ) {
        let body = match status {
            200..300 => json!({ "key": "auth", "state": "in_review" }),
            500.. => json!({ "code": "internal", "detail": "internal error" }),
            _ => json!({ "code": "artifact_exists", "detail": "an artifact 'auth' exists" }),
        };
        let reply = Reply { status: StatusCode::from_u16(status).unwrap(), body, seq };
        let args = json!({ "key": "auth", "title": "auth", "author": "a", "paths": ["src/auth/**"] });
        call(server, rest, team, "create_artifact", args, Ok(reply)).await;
    }

    /// The body `check_write` sent as team `team`, with `args` (an agent and paths without them).
    async fn check(server: &Reviewlock<Scripted>, rest: &Scripted, team: &str, args: Value) -> Value {
        let mut args = args;
        args.as_object_mut().unwrap().entry("agent").or_insert(json!("a"));
        args.as_object_mut().unwrap().entry("paths").or_insert(json!(["src/auth/login.rs"]));
        let answer = json!({ "allowed": true, "agent": "a", "denials": [], "seq": 1 });
        let reply = Reply { status: StatusCode::OK, body: answer, seq: None };
        let sent = call(server, rest, team, "check_write", args, Ok(reply)).await;
        assert_eq!(sent.path, format!("/v1/teams/{team}/checks"));
        sent.body.expect("a check has a body")
    }

    #[tokio::test]
    async fn check_write_sends_the_seq_of_the_session_s_last_write_as_min_seq() {
        let (server, rest) = session();
        let before = check(&server, &rest, "acme", json!({})).await;
        assert_eq!(before, json!({ "agent": "a", "paths": ["src/auth/login.rs"] }), "no write yet");

        write(&server, &rest, "acme", 201, Some(7)).await;
        let after = check(&server, &rest, "acme", json!({})).await;
        assert_eq!(after, json!({ "agent": "a", "paths": ["src/auth/login.rs"], "min_seq": 7 }));
    }

    #[tokio::test]
    async fn a_min_seq_the_caller_gives_is_sent_as_given() {
        let (server, rest) = session();
        write(&server, &rest, "acme", 201, Some(7)).await;
        for given in [3, 7, 20] {
            let sent = check(&server, &rest, "acme", json!({ "min_seq": given })).await;
            assert_eq!(sent["min_seq"], given);
        }
        // And it does not replace the session's own.
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 7);
        // `null`, as clients send an optional field they leave out, is left out.
        assert_eq!(check(&server, &rest, "acme", json!({ "min_seq": null })).await["min_seq"], 7);
    }

    #[tokio::test]
    async fn a_refused_or_unanswered_write_does_not_raise_it() {
        let (server, rest) = session();
        write(&server, &rest, "acme", 409, Some(3)).await;
        assert_eq!(check(&server, &rest, "acme", json!({})).await.get("min_seq"), None, "only a refusal yet");

        write(&server, &rest, "acme", 201, Some(5)).await;
        write(&server, &rest, "acme", 409, Some(9)).await;
        write(&server, &rest, "acme", 500, Some(10)).await;
        let args = json!({ "key": "auth", "title": "auth", "author": "a", "paths": ["src/auth/**"] });
        call(&server, &rest, "acme", "create_artifact", args, Err("connection reset".into())).await;
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 5);
    }

    #[tokio::test]
    async fn the_highest_seq_is_kept() {
        let (server, rest) = session();
        write(&server, &rest, "acme", 201, Some(9)).await;
        write(&server, &rest, "acme", 201, Some(4)).await;
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 9, "a lower seq later");
        write(&server, &rest, "acme", 200, None).await;
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 9, "a write with no seq");
        write(&server, &rest, "acme", 201, Some(12)).await;
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 12);
    }

    #[tokio::test]
    async fn each_team_has_its_own() {
        let (server, rest) = session();
        write(&server, &rest, "acme", 201, Some(5)).await;
        assert_eq!(check(&server, &rest, "globex", json!({})).await.get("min_seq"), None, "acme's seq");

        write(&server, &rest, "globex", 201, Some(2)).await;
        assert_eq!(check(&server, &rest, "globex", json!({})).await["min_seq"], 2);
        assert_eq!(check(&server, &rest, "acme", json!({})).await["min_seq"], 5);
    }
}
