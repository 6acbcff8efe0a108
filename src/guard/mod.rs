//! Where code enters the repository and its main branch (R17): git's own hooks (`reviewlock
//! guard`), which catch what an agent writes any way, a shell included, and the question CI
//! asks before a merge (`reviewlock verify`).
//!
//! Both check a commit for the agents it is credited to: its `Reviewlock-Agent:` trailers,
//! else its author's e-mail address, an alias of an agent (R16); a name that names nobody is the
//! most restricted writer. Both fail closed: a question reviewlock could not answer refuses
//! (the hooks take `--fail-open`; CI never does).

mod commits;
pub mod git;
mod install;
mod verify;

use std::io::Read;
use std::process::ExitCode;

use crate::cli::Writer;
use crate::config::{GuardArgs, GuardCommand, PrePushArgs};
use crate::hook::denied;
use commits::{connect, denials, offences};
use git::Git;

pub use verify::verify;

/// What a hook decided, before `--fail-open` is applied.
enum Outcome {
    Allowed,
    Refused(String),
    /// reviewlock could not be asked: why.
    Unasked(String),
}

pub async fn run(command: &GuardCommand) -> ExitCode {
    match command {
        GuardCommand::Install => match install() {
            Ok(done) => {
                for line in done {
                    eprintln!("reviewlock guard: {line}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("reviewlock guard install: {e}");
                ExitCode::from(2)
            }
        },
        GuardCommand::PreCommit(args) => finish(pre_commit(args).await, args, "commit"),
        GuardCommand::PrePush(args) => finish(pre_push(args).await, &args.guard, "push"),
    }
}

fn install() -> Result<Vec<String>, String> {
    let dir = Git.hooks_dir()?;
    let binary = std::env::current_exe().map_err(|e| format!("cannot find this program's path: {e}"))?;
    install::install(&dir, &binary)
}

fn finish(outcome: Outcome, args: &GuardArgs, what: &str) -> ExitCode {
    match outcome {
        Outcome::Allowed => ExitCode::SUCCESS,
        Outcome::Refused(why) => {
            eprintln!("{why}");
            ExitCode::from(1)
        }
        Outcome::Unasked(why) if args.fail_open => {
            eprintln!(
                "reviewlock guard: --fail-open: letting this {what} through although reviewlock could not be asked: {why}"
            );
            ExitCode::SUCCESS
        }
        Outcome::Unasked(why) => {
            eprintln!(
                "reviewlock guard: this {what} is refused because reviewlock could not be asked whether it may land \
                 (the guard fails closed): {why}. Set REVIEWLOCK_FAIL_OPEN=1 (--fail-open) to let {what}s through \
                 while the service is down."
            );
            ExitCode::from(1)
        }
    }
}

async fn pre_commit(args: &GuardArgs) -> Outcome {
    let git = Git;
    let paths = match git.staged_paths() {
        Ok(paths) if paths.is_empty() => return Outcome::Allowed,
        Ok(paths) => paths,
        Err(e) => return Outcome::Unasked(e),
    };
    let (team, checks) = match connect(&args.server) {
        Ok(connected) => connected,
        Err(e) => return Outcome::Unasked(e),
    };
    let email = git.author_email();
    let writer = match (&args.agent, &email) {
        (Some(agent), _) => Writer::Agent(agent),
        (None, Some(email)) => Writer::Alias(email),
        (None, None) => Writer::Unnamed,
    };
    match denials(&checks, team, writer, &paths).await {
        Ok((_, denials)) if denials.is_empty() => Outcome::Allowed,
        Ok((named, denials)) => Outcome::Refused(format!(
            "reviewlock guard: this commit is refused. {} Unstage these files (git restore --staged <file>) \
             and leave them to the agent the coordinator assigns.",
            denied(named.as_deref(), &denials)
        )),
        Err(e) => Outcome::Unasked(e),
    }
}

async fn pre_push(args: &PrePushArgs) -> Outcome {
    let mut stdin = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut stdin) {
        return Outcome::Unasked(format!("cannot read git's pre-push lines on stdin: {e}"));
    }
    let refs = match git::pushed_refs(&stdin) {
        Ok(refs) => refs,
        Err(e) => return Outcome::Unasked(e),
    };
    let git = Git;
    let mut shas: Vec<String> = Vec::new();
    for pushed in &refs {
        match git.pushed(&pushed.local_sha, pushed.remote_sha.as_deref(), args.remote.as_deref()) {
            Ok(new) => shas.extend(new.into_iter().filter(|sha| !shas.contains(sha)).collect::<Vec<_>>()),
            Err(e) => return Outcome::Unasked(e),
        }
    }
    if shas.is_empty() {
        return Outcome::Allowed;
    }
    let (team, checks) = match connect(&args.guard.server) {
        Ok(connected) => connected,
        Err(e) => return Outcome::Unasked(e),
    };
    let offences = match offences(&git, &checks, team, &shas).await {
        Ok(offences) if offences.is_empty() => return Outcome::Allowed,
        Ok(offences) => offences,
        Err(e) => return Outcome::Unasked(e),
    };
    let lines: Vec<String> = offences.iter().map(|o| format!("  {}", o.line())).collect();
    Outcome::Refused(format!(
        "reviewlock guard: this push is refused: {} of its {} commits write files an agent credited on them may \
         not write:\n{}\nRewrite those commits (or leave their files to the agent the coordinator assigns), then \
         push again.",
        offences.len(),
        shas.len(),
        lines.join("\n")
    ))
}
