//! What the hooks and `verify` share: the server to ask, and a commit checked for the agents
//! it is credited to.

use crate::cli::{Checks, Writer};
use crate::config::ServerArgs;
use crate::resources::Denial;

use super::git::{Commit, Git};

/// The most paths one check asks about (the server's limit).
const CHECK_PATHS: usize = 256;

/// The team and a client of the server, or what is missing.
pub fn connect(args: &ServerArgs) -> Result<(&str, Checks<'_>), String> {
    match (&args.team, &args.token) {
        (Some(team), Some(token)) => {
            Ok((team, Checks { url: &args.url, token, timeout: args.timeout, min_seq: None }))
        }
        _ => {
            let missing: Vec<&str> = [
                (args.team.is_none(), "REVIEWLOCK_TEAM (--team)"),
                (args.token.is_none(), "REVIEWLOCK_TOKEN (--token)"),
            ]
            .into_iter()
            .filter_map(|(missing, name)| missing.then_some(name))
            .collect();
            Err(format!("reviewlock is not configured: set {}", missing.join(", ")))
        }
    }
}

/// The writer's denials on `paths`, with the agent the server named (none for a writer it
/// cannot name).
pub async fn denials(
    checks: &Checks<'_>,
    team: &str,
    writer: Writer<'_>,
    paths: &[String],
) -> Result<(Option<String>, Vec<Denial>), String> {
    let (mut named, mut denials) = (None, Vec::new());
    for chunk in paths.chunks(CHECK_PATHS) {
        let answer = checks.ask_as(team, writer, chunk).await?;
        named = answer.agent;
        denials.extend(answer.denials);
    }
    Ok((named, denials))
}

/// A commit credited to an agent refused the files it changes.
pub struct Offence {
    pub commit: Commit,
    /// The denials, in words, each prefixed by who.
    pub why: Vec<String>,
    /// The artifacts refused.
    pub artifacts: Vec<String>,
}

impl Offence {
    pub fn line(&self) -> String {
        format!("{} {}: {}", self.commit.short, self.commit.subject, self.why.join("; "))
    }
}

/// Each of the commits `shas` checked for each agent it credits (its trailers, else its
/// author's e-mail as an alias) against the files it changes; those refused.
pub async fn offences(
    git: &Git,
    checks: &Checks<'_>,
    team: &str,
    shas: &[String],
) -> Result<Vec<Offence>, String> {
    let mut offences = Vec::new();
    for sha in shas {
        let commit = git.commit(sha)?;
        let paths = git.changed_by(&commit)?;
        if paths.is_empty() {
            continue;
        }
        let writers: Vec<Writer> = if commit.credited.is_empty() {
            if commit.author_email.is_empty() {
                vec![Writer::Unnamed]
            } else {
                vec![Writer::Alias(&commit.author_email)]
            }
        } else {
            commit.credited.iter().map(|a| Writer::Agent(a)).collect()
        };
        let (mut why, mut artifacts) = (Vec::new(), Vec::new());
        for writer in writers {
            let (named, denials) = denials(checks, team, writer, &paths).await?;
            let who = match (named, writer) {
                (Some(agent), _) => format!("agent '{agent}'"),
                (None, Writer::Alias(email)) => format!("author {email} (no agent of the team)"),
                (None, _) => "an unnamed writer".to_owned(),
            };
            for denial in denials {
                why.push(format!("{who}: {} ({})", denial.detail, denial.code));
                if let Some(artifact) = denial.artifact
                    && !artifacts.contains(&artifact)
                {
                    artifacts.push(artifact);
                }
            }
        }
        if !why.is_empty() {
            offences.push(Offence { commit, why, artifacts });
        }
    }
    Ok(offences)
}
