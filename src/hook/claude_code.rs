//! Claude Code's `PreToolUse` hook. The payload on stdin carries `tool_name`, `tool_input` and
//! `cwd`; the file tools name their file in `tool_input.file_path` (Write, Edit, MultiEdit) or
//! `tool_input.notebook_path` (NotebookEdit), as an absolute path. A block is answered with
//! `hookSpecificOutput.permissionDecision: "deny"` on stdout and exit 0, the reason shown to
//! Claude; saying nothing with exit 0 lets the call through. A subagent's call carries its
//! `agent_id` and `agent_type`, and a session started with `--agent` its `agent_type` alone
//! (since Claude Code 2.1.69). (Claude Code's hooks reference,
//! https://docs.claude.com/en/docs/claude-code/hooks, "PreToolUse".)

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answer, Call, Payload, Response};

/// A `PreToolUse` payload's fields the hook reads; Codex sends the same ones.
#[derive(Deserialize)]
pub(super) struct Input {
    pub(super) tool_name: String,
    #[serde(default)]
    pub(super) tool_input: Value,
    pub(super) cwd: Option<std::path::PathBuf>,
    pub(super) agent_type: Option<String>,
    pub(super) agent_id: Option<String>,
}

pub fn parse(payload: &[u8]) -> Result<Payload, String> {
    let input: Input = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    let file = |field: &str| match input.tool_input[field].as_str() {
        Some(path) if !path.is_empty() => Ok(Call::Writes(vec![path.to_owned()])),
        _ => Err(format!("{} names no file in tool_input.{field}", input.tool_name)),
    };
    let call = match input.tool_name.as_str() {
        "Write" | "Edit" | "MultiEdit" => file("file_path")?,
        "NotebookEdit" => file("notebook_path")?,
        "Bash" => Call::Shell,
        _ => Call::Other,
    };
    Ok(Payload {
        call,
        cwd: input.cwd,
        agent_type: input.agent_type.filter(|t| !t.is_empty()),
        agent_id: input.agent_id.filter(|i| !i.is_empty()),
    })
}

pub fn respond(answer: &Answer) -> Response {
    match answer {
        Answer::Allow => Response { stdout: None, exit: 0 },
        Answer::Deny(reason) => Response {
            stdout: Some(
                json!({ "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                }})
                .to_string(),
            ),
            exit: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(payload: Value) -> Result<Call, String> {
        parse(payload.to_string().as_bytes()).map(|p| p.call)
    }

    #[test]
    fn every_file_tool_names_its_file() {
        for (tool, input) in [
            ("Write", json!({ "file_path": "/r/a.rs", "content": "x" })),
            ("Edit", json!({ "file_path": "/r/a.rs", "old_string": "x", "new_string": "y" })),
            ("MultiEdit", json!({ "file_path": "/r/a.rs", "edits": [] })),
            ("NotebookEdit", json!({ "notebook_path": "/r/a.rs", "new_source": "x" })),
        ] {
            let payload = json!({ "tool_name": tool, "tool_input": input, "cwd": "/r" });
            assert_eq!(call(payload), Ok(Call::Writes(vec!["/r/a.rs".into()])), "{tool}");
        }
    }

    #[test]
    fn other_tools_write_nothing_and_bash_is_a_shell() {
        assert_eq!(
            call(json!({ "tool_name": "Read", "tool_input": { "file_path": "/r/a" } })),
            Ok(Call::Other)
        );
        assert_eq!(call(json!({ "tool_name": "Bash", "tool_input": { "command": "ls" } })), Ok(Call::Shell));
    }

    #[test]
    fn the_caller_s_agent_type_and_id_are_carried_when_named() {
        let write = json!({ "tool_name": "Write", "tool_input": { "file_path": "/r/a.rs" }, "cwd": "/r" });
        let payload = |extra: Value| {
            let mut input = write.clone();
            input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            parse(input.to_string().as_bytes()).unwrap()
        };
        let subagent = payload(json!({ "agent_id": "a1b2", "agent_type": "code-reviewer" }));
        assert_eq!(subagent.agent_type.as_deref(), Some("code-reviewer"));
        assert_eq!(subagent.agent_id.as_deref(), Some("a1b2"));
        // Under `--agent`, the session's agent type alone.
        let main = payload(json!({ "agent_type": "runtime-eng" }));
        assert_eq!((main.agent_type.as_deref(), main.agent_id), (Some("runtime-eng"), None));
        let plain = payload(json!({}));
        assert_eq!((plain.agent_type, plain.agent_id), (None, None));
        let empty = payload(json!({ "agent_type": "", "agent_id": "" }));
        assert_eq!((empty.agent_type, empty.agent_id), (None, None), "an empty name is no name");
    }

    #[test]
    fn a_file_tool_without_its_file_or_a_bad_payload_is_an_error() {
        assert!(call(json!({ "tool_name": "Write", "tool_input": {} })).is_err());
        assert!(parse(b"not json").is_err());
        assert!(parse(b"{}").is_err());
    }

    #[test]
    fn allowed_says_nothing_and_denied_says_why() {
        assert_eq!(respond(&Answer::Allow), Response { stdout: None, exit: 0 });
        let denied = respond(&Answer::Deny("because".into()));
        let out: Value = serde_json::from_str(&denied.stdout.unwrap()).unwrap();
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(out["hookSpecificOutput"]["permissionDecisionReason"], "because");
        assert_eq!(denied.exit, 0);
    }
}
