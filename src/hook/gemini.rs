//! Gemini CLI's `BeforeTool` hook (`.gemini/settings.json`). The payload carries `session_id`,
//! `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, `tool_name` and `tool_input`, the
//! model's arguments. The file tools name their file in `tool_input.file_path`: `write_file`
//! and `replace` (the edit tool); `run_shell_command` is a shell; reads, searches and MCP tools
//! (`mcp_<server>_<tool>`) write no repository file.
//!
//! A block is `{"decision": "deny", "reason": …}` on stdout with exit 0, the reason sent to the
//! agent as the tool's error; an empty stdout lets the call through. Gemini CLI reads stdout
//! whatever the exit code, so the crash answer (exit 2) blocks too; but an exit other than 0 and
//! 2 with no JSON is only a warning, and a hook that times out lets the call through.
//! (google-gemini/gemini-cli, `docs/hooks/reference.md`, `packages/core/src/hooks/hookRunner.ts`,
//! `packages/core/src/tools/definitions/base-declarations.ts`;
//! https://geminicli.com/docs/hooks/reference.)

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answer, Call, Payload, Response};

#[derive(Deserialize)]
struct Input {
    tool_name: String,
    #[serde(default)]
    tool_input: Value,
    cwd: Option<std::path::PathBuf>,
}

pub fn parse(payload: &[u8]) -> Result<Payload, String> {
    let input: Input = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    let tool = input.tool_name.as_str();
    let call = match tool {
        "write_file" | "replace" => match input.tool_input["file_path"].as_str() {
            Some(path) if !path.is_empty() => Call::Writes(vec![path.to_owned()]),
            _ => return Err(format!("{tool} names no file in tool_input.file_path")),
        },
        "run_shell_command" => Call::Shell,
        _ => Call::Other,
    };
    Ok(Payload { call, cwd: input.cwd, agent_type: None, agent_id: None })
}

pub fn respond(answer: &Answer) -> Response {
    match answer {
        Answer::Allow => Response { stdout: None, exit: 0 },
        Answer::Deny(reason) => {
            Response { stdout: Some(json!({ "decision": "deny", "reason": reason }).to_string()), exit: 0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, input: Value) -> Result<Call, String> {
        let payload = json!({ "session_id": "s", "transcript_path": "/t.json", "cwd": "/r",
            "hook_event_name": "BeforeTool", "timestamp": "2026-12-04T05:00:00.000Z",
            "tool_name": tool, "tool_input": input });
        parse(payload.to_string().as_bytes()).map(|p| p.call)
    }

    #[test]
    fn write_file_and_replace_name_their_file() {
        assert_eq!(
            call("write_file", json!({ "file_path": "/r/a.rs", "content": "x" })),
            Ok(Call::Writes(vec!["/r/a.rs".into()]))
        );
        assert_eq!(
            call("replace", json!({ "file_path": "a.rs", "old_string": "x", "new_string": "y" })),
            Ok(Call::Writes(vec!["a.rs".into()]))
        );
        assert!(call("replace", json!({ "old_string": "x" })).is_err());
    }

    #[test]
    fn shells_reads_and_mcp_tools() {
        assert_eq!(call("run_shell_command", json!({ "command": "ls" })), Ok(Call::Shell));
        assert_eq!(call("read_file", json!({ "file_path": "a.rs" })), Ok(Call::Other));
        assert_eq!(call("mcp_github_create_issue", json!({})), Ok(Call::Other));
        assert!(parse(b"{\"tool_input\": {}}").is_err(), "no tool_name");
    }

    #[test]
    fn denied_says_why_and_allowed_says_nothing() {
        assert_eq!(respond(&Answer::Allow), Response { stdout: None, exit: 0 });
        let denied = respond(&Answer::Deny("r".into()));
        let out: Value = serde_json::from_str(&denied.stdout.unwrap()).unwrap();
        assert_eq!(out, json!({ "decision": "deny", "reason": "r" }));
        assert_eq!(denied.exit, 0);
    }
}
