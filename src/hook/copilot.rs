//! GitHub Copilot CLI's `preToolUse` hook (`.github/hooks/*.json`). The payload carries
//! `timestamp`, `cwd`, `toolName` and `toolArgs`, the tool's arguments as a JSON-encoded string
//! (an object is read too). The file tools name their file in `path`: `create`, `edit`; the
//! `apply_patch` tool's patch names every file it writes in a header line (`*** Add File:`,
//! `*** Update File:`, `*** Delete File:`, `*** Move to:`). A block is answered with
//! `{"permissionDecision": "deny", "permissionDecisionReason": …}` on stdout; no output lets
//! the call through. (GitHub Docs, "Hooks configuration" reference for Copilot CLI and the
//! coding agent, https://docs.github.com/en/copilot/reference/hooks-configuration.)

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Answer, Call, Payload, Response, patch};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Input {
    tool_name: String,
    #[serde(default)]
    tool_args: Value,
    cwd: Option<std::path::PathBuf>,
}

pub fn parse(payload: &[u8]) -> Result<Payload, String> {
    let input: Input = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    // The arguments arrive JSON-encoded in a string; a patch tool's may be the bare patch.
    let args = match &input.tool_args {
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| input.tool_args.clone()),
        other => other.clone(),
    };
    let tool = input.tool_name.as_str();
    let call = match tool {
        "create" | "edit" | "str_replace" | "insert" | "write" | "write_file" | "create_file" => {
            match args["path"].as_str().or(args["file_path"].as_str()) {
                Some(path) if !path.is_empty() => Call::Writes(vec![path.to_owned()]),
                _ => return Err(format!("{tool} names no file in toolArgs.path")),
            }
        }
        "apply_patch" => {
            let patch = match &args {
                Value::String(patch) => Some(patch.as_str()),
                args => ["input", "patch"].iter().find_map(|f| args[f].as_str()),
            };
            let files = patch::files(patch.ok_or("apply_patch carries no patch text")?);
            if files.is_empty() {
                return Err("apply_patch's patch names no file".into());
            }
            Call::Writes(files)
        }
        "bash" | "powershell" | "shell" => Call::Shell,
        _ => Call::Other,
    };
    Ok(Payload { call, cwd: input.cwd, agent_type: None, agent_id: None })
}

pub fn respond(answer: &Answer) -> Response {
    match answer {
        Answer::Allow => Response { stdout: None, exit: 0 },
        Answer::Deny(reason) => Response {
            stdout: Some(
                json!({ "permissionDecision": "deny", "permissionDecisionReason": reason }).to_string(),
            ),
            exit: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, args: Value) -> Result<Call, String> {
        let payload = json!({ "timestamp": 1, "cwd": "/r", "toolName": tool, "toolArgs": args.to_string() });
        parse(payload.to_string().as_bytes()).map(|p| p.call)
    }

    #[test]
    fn create_and_edit_name_their_file() {
        assert_eq!(
            call("create", json!({ "path": "/r/a.rs", "file_text": "x" })),
            Ok(Call::Writes(vec!["/r/a.rs".into()]))
        );
        assert_eq!(
            call("edit", json!({ "path": "a.rs", "old_str": "x", "new_str": "y" })),
            Ok(Call::Writes(vec!["a.rs".into()]))
        );
        assert!(call("edit", json!({})).is_err());
    }

    #[test]
    fn a_patch_writes_every_file_it_names() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: src/b.rs\n+new\n\
                     *** Delete File: old.rs\n*** Update File: src/a.rs\n*** Move to: src/c.rs\n*** End Patch\n";
        let files = ["src/a.rs", "src/b.rs", "old.rs", "src/c.rs"];
        assert_eq!(
            call("apply_patch", json!({ "input": patch })),
            Ok(Call::Writes(files.iter().map(|f| f.to_string()).collect()))
        );
        // The bare patch as toolArgs.
        let payload = json!({ "toolName": "apply_patch", "toolArgs": patch });
        assert_eq!(
            parse(payload.to_string().as_bytes()).unwrap().call,
            Call::Writes(files.iter().map(|f| f.to_string()).collect())
        );
        assert!(call("apply_patch", json!({ "input": "no headers" })).is_err());
    }

    #[test]
    fn shells_and_other_tools() {
        assert_eq!(call("bash", json!({ "command": "ls" })), Ok(Call::Shell));
        assert_eq!(call("view", json!({ "path": "a.rs" })), Ok(Call::Other));
        assert!(parse(b"[]").is_err());
    }

    #[test]
    fn denied_says_why() {
        assert_eq!(respond(&Answer::Allow).stdout, None);
        let out: Value = serde_json::from_str(&respond(&Answer::Deny("r".into())).stdout.unwrap()).unwrap();
        assert_eq!(out, json!({ "permissionDecision": "deny", "permissionDecisionReason": "r" }));
    }
}
