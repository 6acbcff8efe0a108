//! `reviewlock hook <runtime>`: the pre-tool hook of an agent runtime. It reads the runtime's
//! payload on stdin, finds every file the call would write, makes each repository-relative
//! (R15), asks `POST /v1/teams/{team}/checks`, and answers in the runtime's own format.
//!
//! Each runtime's payload and answer are pure functions in their own file; this one holds what
//! they share: what a call writes, the answer, and the fail-closed rule (a question reviewlock
//! could not answer blocks the call, unless `--fail-open`).

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod patch;
pub mod paths;

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::{Checks, Writer};
use crate::config::{HookArgs, Runtime, ShellPolicy};
use crate::http::codes;
use crate::resources::Denial;

/// What a tool call would do, as far as the lockout is concerned.
#[derive(Debug, PartialEq, Eq)]
pub enum Call {
    /// Writes no file: a read, a search, a tool reviewlock does not know.
    Other,
    /// Writes these files, spelled as the payload spells them.
    Writes(Vec<String>),
    /// Runs a shell command, whose writes cannot be read reliably from its text.
    Shell,
}

/// A runtime's payload, read.
#[derive(Debug, PartialEq, Eq)]
pub struct Payload {
    pub call: Call,
    /// The directory relative paths are relative to, when the payload names one.
    pub cwd: Option<PathBuf>,
    /// The caller's agent type, when the runtime names one: a subagent's (Claude Code, Codex),
    /// or the session's own under Claude Code's `--agent`. The call is checked as the agent
    /// whose id or alias it is (R16).
    pub agent_type: Option<String>,
    /// The subagent instance making the call, when the runtime names one.
    pub agent_id: Option<String>,
}

/// What the hook tells the runtime.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Let the call through, saying nothing.
    Allow,
    /// Block the call; the reason is shown to the model.
    Deny(String),
}

/// What the runtime reads: stdout (if any) and the exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct Response {
    pub stdout: Option<String>,
    pub exit: u8,
}

/// The outcome before `--fail-open` is applied.
enum Decision {
    Allow,
    Deny(String),
    /// reviewlock could not be asked, or its answer could not be read: why.
    Unasked(String),
}

pub fn parse(runtime: Runtime, payload: &[u8]) -> Result<Payload, String> {
    match runtime {
        Runtime::ClaudeCode => claude_code::parse(payload),
        Runtime::Codex => codex::parse(payload),
        Runtime::Copilot => copilot::parse(payload),
        Runtime::Cursor => cursor::parse(payload),
        Runtime::Gemini => gemini::parse(payload),
    }
}

pub fn respond(runtime: Runtime, answer: &Answer) -> Response {
    match runtime {
        Runtime::ClaudeCode => claude_code::respond(answer),
        Runtime::Codex => codex::respond(answer),
        Runtime::Copilot => copilot::respond(answer),
        Runtime::Cursor => cursor::respond(answer),
        Runtime::Gemini => gemini::respond(answer),
    }
}

/// Reads the payload on stdin, decides, prints the runtime's answer and exits as it expects.
pub async fn run(args: &HookArgs) -> ExitCode {
    let runtime = args.runtime;
    // A crash must not let the call through: Claude Code and Codex treat exit codes other than
    // 0 and 2 as a failed hook and run the tool, so a panic answers as a block does, and exits 2
    // with the reason on stderr too (Codex ignores an exit 2 whose stderr is empty).
    std::panic::set_hook(Box::new(move |info| {
        let answer = Answer::Deny(unasked(&format!("the hook crashed: {info}")));
        let response = respond(runtime, &answer);
        if let Some(out) = response.stdout {
            println!("{out}");
        }
        eprintln!("reviewlock hook: {info}");
        std::process::exit(2);
    }));
    let mut payload = Vec::new();
    let decision = match std::io::stdin().read_to_end(&mut payload) {
        Ok(_) => decide(args, &payload).await,
        Err(e) => Decision::Unasked(format!("cannot read the hook payload on stdin: {e}")),
    };
    let answer = match decision {
        Decision::Allow => Answer::Allow,
        Decision::Deny(reason) => Answer::Deny(reason),
        Decision::Unasked(why) if args.fail_open => {
            eprintln!(
                "reviewlock hook: --fail-open: letting this call through although reviewlock could not be asked: {why}"
            );
            Answer::Allow
        }
        Decision::Unasked(why) => Answer::Deny(unasked(&why)),
    };
    if let Answer::Deny(reason) = &answer {
        eprintln!("{reason}");
    }
    let response = respond(runtime, &answer);
    if let Some(out) = response.stdout {
        println!("{out}");
    }
    ExitCode::from(response.exit)
}

/// The reason given when reviewlock could not be asked.
pub fn unasked(why: &str) -> String {
    format!(
        "reviewlock could not be asked whether this write is allowed, so it is blocked (the hook fails closed): {why}. \
         Do not work around it; tell the user or the coordinator that the lockout service is unavailable."
    )
}

async fn decide(args: &HookArgs, payload: &[u8]) -> Decision {
    let payload = match parse(args.runtime, payload) {
        Ok(payload) => payload,
        Err(e) => return Decision::Unasked(format!("the hook payload cannot be read: {e}")),
    };
    let files = match payload.call {
        Call::Other => return Decision::Allow,
        Call::Shell => {
            return match args.shell {
                ShellPolicy::Allow => Decision::Allow,
                ShellPolicy::Deny => Decision::Deny(
                    "reviewlock blocks shell commands here (--shell deny): a shell command's writes cannot be \
                     checked against the lockout. Write files with the file-editing tools instead."
                        .into(),
                ),
            };
        }
        Call::Writes(files) => files,
    };
    let cwd = match payload.cwd.map_or_else(std::env::current_dir, Ok) {
        Ok(cwd) => cwd,
        Err(e) => return Decision::Unasked(format!("no working directory: {e}")),
    };
    let root = paths::root(args.root.as_deref(), &cwd);
    let mut relative = Vec::new();
    let mut outside = Vec::new();
    for file in &files {
        match paths::relative(file, &cwd, &root) {
            Some(path) => relative.push(path),
            None => outside.push(file.as_str()),
        }
    }
    if !outside.is_empty() {
        return Decision::Deny(format!(
            "reviewlock blocks writing {}: outside the repository at {}, where no lockout can be checked. \
             Write only files inside the repository.",
            quoted(&outside),
            root.display()
        ));
    }
    let (Some(team), Some(token)) = (&args.team, &args.token) else {
        let missing: Vec<&str> = [
            (args.team.is_none(), "REVIEWLOCK_TEAM (--team)"),
            (args.token.is_none(), "REVIEWLOCK_TOKEN (--token)"),
        ]
        .into_iter()
        .filter_map(|(missing, name)| missing.then_some(name))
        .collect();
        return Decision::Unasked(format!("the hook is not configured: set {}", missing.join(", ")));
    };
    let checks = Checks { url: &args.url, token, timeout: args.timeout, min_seq: args.min_seq };
    // R16: who is writing. The session's agent: REVIEWLOCK_AGENT, else the agent the token is
    // bound to (the server's answer to no name), else a writer the server cannot name.
    let session = args.agent.as_deref().map_or(Writer::Unnamed, Writer::Agent);
    let mut answer = match payload.agent_type.as_deref() {
        // The agent the runtime names: a subagent's name that names no roster agent is asked as
        // nobody, never as the session's agent.
        Some(name) => ask(&checks, team, Writer::Alias(name), &relative).await,
        None => ask(&checks, team, session, &relative).await,
    };
    // Under Claude Code's `--agent`, the session's own name (no subagent): when it names no
    // roster agent, the session's agent writes.
    if let (Ok((None, _)), Some(_), None) = (&answer, &payload.agent_type, &payload.agent_id) {
        answer = ask(&checks, team, session, &relative).await;
    }
    match answer {
        Err(why) => Decision::Unasked(why),
        Ok((_, denials)) if denials.is_empty() => Decision::Allow,
        Ok((agent, denials)) => Decision::Deny(denied(agent.as_deref(), &denials)),
    }
}

/// The agent the server answered for (none when it could not name the writer) and every denial
/// of these paths, asked at most 256 at a time, as the server takes them.
async fn ask(
    checks: &Checks<'_>,
    team: &str,
    writer: Writer<'_>,
    paths: &[String],
) -> Result<(Option<String>, Vec<Denial>), String> {
    let (mut agent, mut denials) = (None, Vec::new());
    for chunk in paths.chunks(256) {
        let answer = checks.ask_as(team, writer, chunk).await?;
        agent = answer.agent;
        denials.extend(answer.denials);
    }
    Ok((agent, denials))
}

/// The reason the model reads: what is refused, why, and what to do instead.
pub fn denied(agent: Option<&str>, denials: &[Denial]) -> String {
    let agent = agent.map_or("this agent".to_owned(), |a| format!("agent '{a}'"));
    // Each with its code and what the code means (`http::codes`, the table every surface reads).
    let what: Vec<String> =
        denials.iter().map(|d| format!("{} ({}: {})", d.detail, d.code, codes::meaning(d.code))).collect();
    let mut artifacts: Vec<&str> = denials.iter().filter_map(|d| d.artifact.as_deref()).collect();
    artifacts.dedup();
    let next = if artifacts.is_empty() {
        "ask the coordinator to assign this work to an agent that may write it".to_owned()
    } else {
        let artifacts: Vec<String> = artifacts.iter().map(|a| format!("artifact '{a}'")).collect();
        format!("ask the coordinator to reassign {} to another agent", list(&artifacts))
    };
    format!(
        "reviewlock denies {agent} this write: {}. Do not retry it or write these files another way \
         (a shell command included); {next}.",
        what.join("; ")
    )
}

fn quoted(items: &[&str]) -> String {
    list(&items.iter().map(|i| format!("'{i}'")).collect::<Vec<_>>())
}

fn list(items: &[String]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == items.len() { " and " } else { ", " });
        }
        out.push_str(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denial_names_the_artifact_the_reason_and_the_way_forward() {
        let denials = [Denial {
            artifact: Some("auth".into()),
            code: crate::domain::Code::AgentLockedOut,
            detail: "'src/auth/a.rs' belongs to artifact 'auth', which agent 'a' is locked out of".into(),
        }];
        let reason = denied(Some("a"), &denials);
        assert!(
            reason.starts_with("reviewlock denies agent 'a' this write: 'src/auth/a.rs' belongs"),
            "{reason}"
        );
        // The code, and what it means from the one table of codes.
        assert!(
            reason.contains("(agent_locked_out: the agent is locked out of this artifact (R5, R6))"),
            "{reason}"
        );
        assert!(
            reason.ends_with("ask the coordinator to reassign artifact 'auth' to another agent."),
            "{reason}"
        );
    }

    #[test]
    fn lists_read_as_english() {
        assert_eq!(quoted(&["a"]), "'a'");
        assert_eq!(quoted(&["a", "b"]), "'a' and 'b'");
        assert_eq!(quoted(&["a", "b", "c"]), "'a', 'b' and 'c'");
    }
}
