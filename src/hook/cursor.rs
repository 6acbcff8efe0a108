//! Cursor's hooks (`.cursor/hooks.json`). `preToolUse` runs before the agent's tools, file
//! edits included (`tool_name`, `tool_input` with the file in `file_path`, or `path`,
//! `target_file`), and can deny; `beforeShellExecution` (`command`, `cwd`) before a shell
//! command. Both answer `{"permission": "allow"|"deny"|"ask", "user_message", "agent_message"}`.
//! `afterFileEdit` runs after the edit and cannot block it: do not rely on it. Every payload
//! carries `hook_event_name` and `workspace_roots`. (Cursor Docs, "Hooks",
//! https://cursor.com/docs/agent/hooks.)

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answer, Call, Payload, Response};

#[derive(Deserialize)]
struct Input {
    hook_event_name: String,
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Value,
    cwd: Option<std::path::PathBuf>,
    #[serde(default)]
    workspace_roots: Vec<std::path::PathBuf>,
}

pub fn parse(payload: &[u8]) -> Result<Payload, String> {
    let input: Input = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    let args = match &input.tool_input {
        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        other => other.clone(),
    };
    let call = match (input.hook_event_name.as_str(), input.tool_name.as_deref()) {
        ("beforeShellExecution", _) | ("preToolUse", Some("Shell")) => Call::Shell,
        (
            "preToolUse",
            Some(tool @ ("Write" | "StrReplace" | "Edit" | "MultiEdit" | "Delete" | "EditNotebook")),
        ) => {
            match ["file_path", "path", "target_file", "target_notebook"]
                .iter()
                .find_map(|f| args[f].as_str())
            {
                Some(path) if !path.is_empty() => Call::Writes(vec![path.to_owned()]),
                _ => return Err(format!("{tool} names no file in tool_input.file_path")),
            }
        }
        _ => Call::Other,
    };
    Ok(Payload {
        call,
        cwd: input.cwd.or_else(|| input.workspace_roots.into_iter().next()),
        agent_type: None,
        agent_id: None,
    })
}

pub fn respond(answer: &Answer) -> Response {
    match answer {
        // No decision: Cursor goes on as it would without the hook (an "allow" would also skip
        // the user's own approval of a shell command).
        Answer::Allow => Response { stdout: Some("{}".into()), exit: 0 },
        Answer::Deny(reason) => Response {
            stdout: Some(
                json!({ "permission": "deny", "user_message": reason, "agent_message": reason }).to_string(),
            ),
            exit: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(payload: Value) -> Result<Payload, String> {
        parse(payload.to_string().as_bytes())
    }

    #[test]
    fn file_tools_name_their_file_and_the_workspace_is_the_working_directory() {
        for tool in ["Write", "StrReplace", "Delete"] {
            let payload = json!({ "hook_event_name": "preToolUse", "tool_name": tool,
                "tool_input": { "file_path": "/w/a.rs" }, "workspace_roots": ["/w"] });
            let payload = call(payload).unwrap();
            assert_eq!(payload.call, Call::Writes(vec!["/w/a.rs".into()]), "{tool}");
            assert_eq!(payload.cwd.as_deref(), Some(std::path::Path::new("/w")));
        }
        let payload = json!({ "hook_event_name": "preToolUse", "tool_name": "Write", "tool_input": {} });
        assert!(call(payload).is_err());
    }

    #[test]
    fn shells_and_other_events() {
        let shell = json!({ "hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "/w" });
        assert_eq!(call(shell).unwrap().call, Call::Shell);
        let read = json!({ "hook_event_name": "preToolUse", "tool_name": "Read", "tool_input": { "file_path": "a" } });
        assert_eq!(call(read).unwrap().call, Call::Other);
        assert!(parse(b"{\"tool_name\": \"Write\"}").is_err(), "no hook_event_name");
    }

    #[test]
    fn allowed_decides_nothing_and_denied_tells_both() {
        assert_eq!(respond(&Answer::Allow).stdout.as_deref(), Some("{}"));
        let out: Value = serde_json::from_str(&respond(&Answer::Deny("r".into())).stdout.unwrap()).unwrap();
        assert_eq!(out, json!({ "permission": "deny", "user_message": "r", "agent_message": "r" }));
    }
}
