//! `reviewlock verify`: CI's question before a merge (R17). The commit's changed files go to
//! `POST …/ref-checks`; with `--range`, each commit of the range is also checked for the agents
//! it credits, as the pre-push hook checks it, so a commit a hook never saw is caught here.

use std::collections::BTreeMap;
use std::process::ExitCode;

use super::commits::{Offence, connect, offences};
use super::git::Git;
use crate::cli::Checks;
use crate::config::{VerifyArgs, VerifyFormat};
use crate::resources::{RefCheckArtifact, RefCheckResult};

/// The most paths one ref check asks about (the server's limit).
const REF_CHECK_PATHS: usize = 1000;
/// The most bytes of paths one ref check carries, well within the server's 256 KiB body limit.
const REF_CHECK_BYTES: usize = 200 * 1024;

pub async fn verify(args: &VerifyArgs) -> ExitCode {
    match decide(args).await {
        Ok(report) => {
            print!("{}", report.render(args.format));
            if report.allowed() { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(e) => {
            let message = format!("reviewlock verify: could not decide, so the commit may not land: {e}");
            if args.format == VerifyFormat::Github {
                println!("::error title=reviewlock::{}", escape_data(&message));
            }
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

/// What `verify` found.
struct Report {
    short: String,
    files: usize,
    answer: RefCheckResult,
    offences: Vec<Offence>,
}

async fn decide(args: &VerifyArgs) -> Result<Report, String> {
    let git = Git;
    let sha = git.resolve(&args.git_ref)?;
    let commit = git.commit(&sha)?;
    let (paths, range) = match &args.range {
        Some(range) => {
            let (base, head) = range
                .split_once("..")
                .filter(|(base, head)| !base.is_empty() && !head.is_empty() && !head.starts_with('.'))
                .ok_or_else(|| format!("--range '{range}': expected <base>..<head>"))?;
            (git.changed_since(base, head)?, Some(git.range(base, head)?))
        }
        None => (git.changed_from_first_parent(&commit)?, None),
    };
    let (team, checks) = connect(&args.server)?;
    let answer = ref_check(&checks, team, &sha, &paths).await?;
    let offences = match range {
        Some(shas) => offences(&git, &checks, team, &shas).await?,
        None => Vec::new(),
    };
    Ok(Report { short: commit.short, files: paths.len(), answer, offences })
}

/// The ref check of all of `paths`, asked in as many questions as the server's limits need.
async fn ref_check(
    checks: &Checks<'_>,
    team: &str,
    sha: &str,
    paths: &[String],
) -> Result<RefCheckResult, String> {
    let mut merged: BTreeMap<String, RefCheckArtifact> = BTreeMap::new();
    let mut allowed = true;
    for chunk in chunks(paths) {
        let answer = checks.ref_check(team, sha, chunk).await?;
        allowed &= answer.allowed;
        for artifact in answer.artifacts {
            match merged.get_mut(&artifact.artifact) {
                Some(seen) => seen.paths.extend(artifact.paths),
                None => {
                    merged.insert(artifact.artifact.clone(), artifact);
                }
            }
        }
    }
    Ok(RefCheckResult { allowed, artifacts: merged.into_values().collect() })
}

/// `paths` cut into questions within [`REF_CHECK_PATHS`] and [`REF_CHECK_BYTES`]; one empty
/// question when there is no path, so the answer still comes from the server.
fn chunks(paths: &[String]) -> Vec<&[String]> {
    let mut chunks = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, path) in paths.iter().enumerate() {
        // A path's bytes, its quotes and its comma, as JSON escapes at most double it.
        let size = path.len() * 2 + 3;
        if i > start && (i - start == REF_CHECK_PATHS || bytes + size > REF_CHECK_BYTES) {
            chunks.push(&paths[start..i]);
            (start, bytes) = (i, 0);
        }
        bytes += size;
    }
    chunks.push(&paths[start..]);
    chunks
}

impl Report {
    fn allowed(&self) -> bool {
        self.answer.allowed && self.offences.is_empty()
    }

    fn render(&self, format: VerifyFormat) -> String {
        let mut out = String::new();
        let short = &self.short;
        let verdict = if self.allowed() { "may land" } else { "may not land" };
        let why = match (self.answer.artifacts.is_empty(), self.answer.allowed) {
            (true, _) => format!("no artifact covers the {} files it changes", self.files),
            (false, true) => "every artifact covering its files approved a version with its SHA".to_owned(),
            (false, false) => {
                "an artifact covering its files did not approve a version with its SHA".to_owned()
            }
        };
        out += &format!("reviewlock verify: {short} {verdict}: {why}.\n");
        for a in &self.answer.artifacts {
            let mark = if a.approved { "approved" } else { "refused" };
            out += &format!("  {mark}  {} ({}): {}\n", a.artifact, a.paths.join(", "), a.detail);
        }
        if !self.offences.is_empty() {
            out += &format!(
                "{} commits of the range are credited to an agent refused the files they change:\n",
                self.offences.len()
            );
            for offence in &self.offences {
                out += &format!("  {}\n", offence.line());
            }
        }
        if format == VerifyFormat::Github {
            for a in self.answer.artifacts.iter().filter(|a| !a.approved) {
                let message = format!("reviewlock: {short} may not land: {}", a.detail);
                for path in &a.paths {
                    out += &format!(
                        "::error file={},title=reviewlock::{}\n",
                        escape_property(path),
                        escape_data(&message)
                    );
                }
            }
            for offence in &self.offences {
                let message = format!("reviewlock: commit {}", offence.line());
                // On the files of the refused artifacts the pull request changes, when known.
                let files: Vec<&String> = (self.answer.artifacts.iter())
                    .filter(|a| offence.artifacts.contains(&a.artifact))
                    .flat_map(|a| &a.paths)
                    .collect();
                if files.is_empty() {
                    out += &format!("::error title=reviewlock::{}\n", escape_data(&message));
                }
                for path in files {
                    out += &format!(
                        "::error file={},title=reviewlock::{}\n",
                        escape_property(path),
                        escape_data(&message)
                    );
                }
            }
        }
        out
    }
}

/// A workflow command's message, escaped as the Actions runner reads it.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value (`file=`), escaped as the Actions runner reads it.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_asked_within_the_server_s_limits() {
        let few: Vec<String> = (0..3).map(|i| i.to_string()).collect();
        assert_eq!(chunks(&few).len(), 1);
        assert_eq!(chunks(&[]).len(), 1, "no path is still one question");
        let many: Vec<String> = (0..2500).map(|i| i.to_string()).collect();
        assert_eq!(chunks(&many).iter().map(|c| c.len()).collect::<Vec<_>>(), [1000, 1000, 500]);
        let long: Vec<String> = vec!["a".repeat(1000); 300];
        let sizes: Vec<usize> = chunks(&long).iter().map(|c| c.len()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), 300);
        assert!(sizes.iter().all(|n| n * 2003 <= REF_CHECK_BYTES), "{sizes:?}");
    }

    #[test]
    fn annotations_escape_what_the_runner_reads_as_syntax() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a,b:c.rs"), "a%2Cb%3Ac.rs");
    }
}
