//! Codex CLI's `PreToolUse` hook (`.codex/hooks.json`). The payload is Claude Code's shape
//! (`session_id`, `turn_id`, `cwd`, `hook_event_name`, `model`, `permission_mode`, `tool_name`,
//! `tool_input`, `tool_use_id`; in a subagent also `agent_id`, its thread, and `agent_type`, its
//! role: openai/codex#22882). `apply_patch`, Codex's file edit tool, sends the raw patch in
//! `tool_input.command`: each `*** Add File:`, `*** Update File:`, `*** Delete File:` and
//! `*** Move to:` header names a written file, relative to `cwd`. Shell tools (`shell`,
//! `exec_command`, …) arrive as `Bash` with the command in `tool_input.command`; Codex itself
//! applies a patch given to a shell command, so such a command is checked as the patch. MCP tools
//! (`mcp__server__tool`) write no file.
//!
//! A block is Claude's `hookSpecificOutput.permissionDecision: "deny"` with a non-empty
//! `permissionDecisionReason`, on stdout with exit 0; an empty stdout lets the call through.
//! Codex runs the tool when a hook fails, times out, exits other than 0 and 2, or exits 2 with an
//! empty stderr, and rejects output with unknown fields, so the answer carries nothing else.
//! (openai/codex, `codex-rs/hooks/src/schema.rs` (`PreToolUseCommandInput`,
//! `PreToolUseCommandOutputWire`), `codex-rs/hooks/src/events/pre_tool_use.rs`,
//! `codex-rs/hooks/src/engine/output_parser.rs`; https://developers.openai.com/codex/hooks.)

use serde_json::Value;

use super::{Answer, Call, Payload, Response, claude_code, patch};

pub fn parse(payload: &[u8]) -> Result<Payload, String> {
    let input: claude_code::Input = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    let tool = input.tool_name.as_str();
    // The patch is in `command` (openai/codex#16732's fix); `input` is the tool's own argument
    // name, read too so a payload that passes it through is still checked rather than refused.
    let command = match &input.tool_input {
        Value::String(command) => Some(command.as_str()),
        args => ["command", "input"].iter().find_map(|f| args[f].as_str()),
    };
    let call = match tool {
        "apply_patch" => {
            let files = patch::files(command.ok_or("apply_patch carries no patch in tool_input.command")?);
            if files.is_empty() {
                return Err("apply_patch's patch names no file".into());
            }
            Call::Writes(files)
        }
        "Bash" | "shell" | "shell_command" | "exec_command" | "local_shell" => {
            let files: Vec<String> =
                patch::envelope_files(command.unwrap_or_default()).into_iter().map(str::to_owned).collect();
            if files.is_empty() { Call::Shell } else { Call::Writes(files) }
        }
        _ => Call::Other,
    };
    Ok(Payload {
        call,
        cwd: input.cwd,
        agent_type: input.agent_type.filter(|t| !t.is_empty()),
        agent_id: input.agent_id.filter(|i| !i.is_empty()),
    })
}

/// Claude Code's answer, which Codex reads as its own.
pub fn respond(answer: &Answer) -> Response {
    claude_code::respond(answer)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parsed(tool: &str, input: Value) -> Result<Payload, String> {
        let payload = json!({ "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": "/r",
            "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
            "tool_name": tool, "tool_input": input, "tool_use_id": "call_1" });
        parse(payload.to_string().as_bytes())
    }

    fn call(tool: &str, input: Value) -> Result<Call, String> {
        parsed(tool, input).map(|p| p.call)
    }

    #[test]
    fn apply_patch_writes_every_file_its_patch_names() {
        let patch = "*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** Update File: src/a.rs\n@@\n-x\n+y\n\
                     *** Delete File: old.rs\n*** Update File: src/b.rs\n*** Move to: src/c.rs\n@@\n-p\n+q\n*** End Patch\n";
        let files = ["docs/new.md", "src/a.rs", "old.rs", "src/b.rs", "src/c.rs"].map(String::from).to_vec();
        assert_eq!(call("apply_patch", json!({ "command": patch })), Ok(Call::Writes(files.clone())));
        assert_eq!(call("apply_patch", json!({ "input": patch })), Ok(Call::Writes(files)));
        assert!(call("apply_patch", json!({ "command": "no headers" })).is_err());
        assert!(call("apply_patch", json!({})).is_err(), "no patch at all");
    }

    #[test]
    fn shells_are_shells_unless_they_apply_a_patch() {
        assert_eq!(call("Bash", json!({ "command": "cargo test" })), Ok(Call::Shell));
        let heredoc =
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/a.rs\n+x\n*** End Patch\nEOF\n";
        assert_eq!(call("Bash", json!({ "command": heredoc })), Ok(Call::Writes(vec!["src/a.rs".into()])));
        assert_eq!(call("mcp__github__create_issue", json!({ "title": "x" })), Ok(Call::Other));
    }

    #[test]
    fn a_subagent_s_id_and_type_are_carried() {
        let mut payload = json!({ "session_id": "s", "turn_id": "t", "agent_id": "019a-child",
            "agent_type": "worker", "cwd": "/r", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": { "command": "ls" }, "tool_use_id": "call_1" });
        let sub = parse(payload.to_string().as_bytes()).unwrap();
        assert_eq!(
            (sub.agent_type.as_deref(), sub.agent_id.as_deref()),
            (Some("worker"), Some("019a-child"))
        );
        payload.as_object_mut().unwrap().retain(|k, _| !k.starts_with("agent_"));
        let main = parse(payload.to_string().as_bytes()).unwrap();
        assert_eq!((main.agent_type, main.agent_id), (None, None));
        assert_eq!(
            parsed("Bash", json!({ "command": "ls" })).unwrap().cwd.as_deref(),
            Some(std::path::Path::new("/r"))
        );
    }

    #[test]
    fn a_denial_is_the_one_form_codex_reads_and_an_allow_says_nothing() {
        assert_eq!(respond(&Answer::Allow), Response { stdout: None, exit: 0 });
        let denied = respond(&Answer::Deny("because".into()));
        let out: Value = serde_json::from_str(&denied.stdout.unwrap()).unwrap();
        // Codex refuses unknown fields (and then runs the tool): exactly these three.
        assert_eq!(
            out,
            json!({ "hookSpecificOutput": { "hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "because" } })
        );
        assert_eq!(denied.exit, 0);
        assert!(parse(b"{not json").is_err());
    }
}
