//! The git the guard needs: run it, and read what it prints. The reading is pure, and tested
//! here; the running is `Git`.

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A commit as the guard reports and checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub sha: String,
    pub short: String,
    pub subject: String,
    /// The author's e-mail address: an alias of the agent that wrote it, when no trailer says.
    pub author_email: String,
    /// The agents credited by `Reviewlock-Agent:` trailers, in order, each once.
    pub credited: Vec<String>,
    pub parents: usize,
}

/// The trailer that credits a commit to an agent of the team; repeatable.
pub const TRAILER: &str = "Reviewlock-Agent";

/// Git, run in the current directory.
pub struct Git;

impl Git {
    /// Runs git with `args`; its stdout, or why it failed (its stderr).
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, String> {
        let output = Command::new("git")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            return Err(format!("git {} failed: {}", args.join(" "), stderr.trim()));
        }
        Ok(output.stdout)
    }

    fn text(&self, args: &[&str]) -> Result<String, String> {
        let out = self.run(args)?;
        Ok(String::from_utf8_lossy(&out).trim_end_matches('\n').to_owned())
    }

    /// Where git looks for this repository's hooks (`core.hooksPath` respected).
    pub fn hooks_dir(&self) -> Result<PathBuf, String> {
        self.text(&["rev-parse", "--git-path", "hooks"]).map(PathBuf::from)
    }

    /// The files the staged changes touch (both sides of a rename, deletions included).
    pub fn staged_paths(&self) -> Result<Vec<String>, String> {
        self.run(&["diff", "--cached", "--name-status", "-M", "-z"]).map(|out| name_status(&out))
    }

    /// The author's e-mail address of the commit being made (`user.email`, `GIT_AUTHOR_EMAIL`).
    pub fn author_email(&self) -> Option<String> {
        self.text(&["var", "GIT_AUTHOR_IDENT"]).ok().and_then(|ident| ident_email(&ident))
    }

    /// The full SHA of a commit.
    pub fn resolve(&self, rev: &str) -> Result<String, String> {
        self.text(&["rev-parse", "--verify", "--end-of-options", &format!("{rev}^{{commit}}")])
    }

    /// The commit `sha` with its subject, author and credited agents.
    pub fn commit(&self, sha: &str) -> Result<Commit, String> {
        let format = format!(
            "--format=%H%x00%h%x00%s%x00%ae%x00%P%x00%(trailers:key={TRAILER},valueonly,separator=%x00)"
        );
        let out = self.run(&["show", "-s", &format, "--end-of-options", sha])?;
        parse_commit(&out).ok_or_else(|| format!("git show {sha}: unexpected output"))
    }

    /// The files the commit changes against its first parent (every file of a root commit);
    /// for a merge, the files that differ from every parent (what the merge itself wrote: a
    /// conflict's resolution), since the merged commits are checked on their own.
    pub fn changed_by(&self, commit: &Commit) -> Result<Vec<String>, String> {
        if commit.parents > 1 {
            self.run(&["diff-tree", "--no-commit-id", "-r", "-z", "--name-only", "-c", &commit.sha])
                .map(|out| names(&out))
        } else {
            self.changed_from_first_parent(commit)
        }
    }

    /// The files the commit changes against its first parent; every file of a root commit.
    pub fn changed_from_first_parent(&self, commit: &Commit) -> Result<Vec<String>, String> {
        let sha = commit.sha.as_str();
        let out = if commit.parents == 0 {
            self.run(&["diff-tree", "--no-commit-id", "-r", "-M", "-z", "--name-status", "--root", sha])?
        } else {
            self.run(&["diff", "--name-status", "-M", "-z", &format!("{sha}^1"), sha])?
        };
        Ok(name_status(&out))
    }

    /// The files `head` changes since it forked from `base` (`git diff base...head`): what a
    /// pull request shows.
    pub fn changed_since(&self, base: &str, head: &str) -> Result<Vec<String>, String> {
        self.run(&["diff", "--name-status", "-M", "-z", &format!("{base}...{head}")])
            .map(|out| name_status(&out))
    }

    /// The commits of `base..head`, oldest first.
    pub fn range(&self, base: &str, head: &str) -> Result<Vec<String>, String> {
        self.text(&["rev-list", "--reverse", &format!("{base}..{head}")]).map(lines)
    }

    /// The commits a push of `local` sends that the remote has not got: beyond `remote_sha`
    /// when git knows it, else beyond every ref of `remote` (a new branch; every remote's when
    /// git named none).
    pub fn pushed(
        &self,
        local: &str,
        remote_sha: Option<&str>,
        remote: Option<&str>,
    ) -> Result<Vec<String>, String> {
        if let Some(remote_sha) = remote_sha
            && let Ok(out) = self.text(&["rev-list", "--reverse", local, "--not", remote_sha])
        {
            return Ok(lines(out));
        }
        let remotes = remote.map_or_else(|| "--remotes".to_owned(), |r| format!("--remotes={r}"));
        self.text(&["rev-list", "--reverse", local, "--not", &remotes]).map(lines)
    }
}

fn lines(text: String) -> Vec<String> {
    text.lines().filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

/// The paths of `--name-status -z` output: `M\0path\0`, `R100\0old\0new\0`; a rename or copy
/// counts both sides, a deletion its path.
pub fn name_status(out: &[u8]) -> Vec<String> {
    let mut fields =
        out.split(|b| *b == 0).filter(|f| !f.is_empty()).map(|f| String::from_utf8_lossy(f).into_owned());
    let mut paths = Vec::new();
    while let Some(status) = fields.next() {
        let sides = if status.starts_with('R') || status.starts_with('C') { 2 } else { 1 };
        paths.extend(fields.by_ref().take(sides));
    }
    dedup(paths)
}

/// The paths of `--name-only -z` output.
pub fn names(out: &[u8]) -> Vec<String> {
    dedup(
        out.split(|b| *b == 0)
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect(),
    )
}

fn dedup(paths: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    paths.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// The e-mail address of an ident: `Name <email> 1700000000 +0000`.
pub fn ident_email(ident: &str) -> Option<String> {
    let (_, rest) = ident.split_once('<')?;
    let (email, _) = rest.split_once('>')?;
    Some(email.trim().to_owned()).filter(|e| !e.is_empty())
}

/// A commit from `git show -s` with the guard's format: NUL-separated fields, the trailers'
/// values last.
pub fn parse_commit(out: &[u8]) -> Option<Commit> {
    let text = String::from_utf8_lossy(out);
    let mut fields = text.trim_end_matches('\n').split('\0');
    let (sha, short, subject, author_email, parents) =
        (fields.next()?, fields.next()?, fields.next()?, fields.next()?, fields.next()?);
    let mut credited: Vec<String> = Vec::new();
    for agent in fields.map(str::trim).filter(|a| !a.is_empty()) {
        if !credited.iter().any(|c| c == agent) {
            credited.push(agent.to_owned());
        }
    }
    Some(Commit {
        sha: sha.to_owned(),
        short: short.to_owned(),
        subject: subject.to_owned(),
        author_email: author_email.to_owned(),
        credited,
        parents: parents.split_whitespace().count(),
    })
}

/// One line git writes to a pre-push hook's stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedRef {
    pub local_ref: String,
    pub local_sha: String,
    pub remote_ref: String,
    /// `None` for a branch the remote does not have yet.
    pub remote_sha: Option<String>,
}

/// The refs of a push, deletions (an all-zero local SHA) left out: they push no commit.
pub fn pushed_refs(stdin: &str) -> Result<Vec<PushedRef>, String> {
    let zero = |sha: &str| sha.bytes().all(|b| b == b'0');
    let mut refs = Vec::new();
    for line in stdin.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let [local_ref, local_sha, remote_ref, remote_sha] = line.split_whitespace().collect::<Vec<_>>()[..]
        else {
            return Err(format!("cannot read the pre-push line '{line}': expected 4 fields"));
        };
        if zero(local_sha) {
            continue;
        }
        refs.push(PushedRef {
            local_ref: local_ref.to_owned(),
            local_sha: local_sha.to_owned(),
            remote_ref: remote_ref.to_owned(),
            remote_sha: (!zero(remote_sha)).then(|| remote_sha.to_owned()),
        });
    }
    Ok(refs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_count_both_sides_and_deletions_count() {
        let out = b"M\0src/a.rs\0R087\0src/old.rs\0src/new.rs\0D\0src/gone.rs\0C100\0x\0y\0A\0src/a.rs\0";
        assert_eq!(name_status(out), ["src/a.rs", "src/old.rs", "src/new.rs", "src/gone.rs", "x", "y"]);
        assert_eq!(names(b"a\0b\0a\0"), ["a", "b"]);
        assert!(name_status(b"").is_empty());
    }

    #[test]
    fn an_ident_s_email_is_between_angle_brackets() {
        assert_eq!(
            ident_email("A U Thor <a@example.com> 1700000000 +0000").as_deref(),
            Some("a@example.com")
        );
        assert_eq!(ident_email("nobody 1700000000 +0000"), None);
        assert_eq!(ident_email("x <> 1 +0000"), None);
    }

    #[test]
    fn a_commit_reads_with_its_credited_agents_once_each() {
        let out = b"abc123\0abc\0Fix the login\0a@example.com\0p1 p2\0web-eng\0 docs-eng\0web-eng\0\n";
        let commit = parse_commit(out).unwrap();
        assert_eq!(commit.credited, ["web-eng", "docs-eng"]);
        assert_eq!((commit.subject.as_str(), commit.parents), ("Fix the login", 2));
        let plain = parse_commit(b"abc123\0abc\0Root\0a@example.com\0\0\n").unwrap();
        assert!(plain.credited.is_empty() && plain.parents == 0);
    }

    #[test]
    fn a_push_s_lines_skip_deletions_and_mark_new_branches() {
        let zero = "0".repeat(40);
        let stdin = format!(
            "refs/heads/a 1111 refs/heads/a 2222\nrefs/heads/b 3333 refs/heads/b {zero}\n(delete) {zero} refs/heads/c 4444\n\n"
        );
        let refs = pushed_refs(&stdin).unwrap();
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[0].remote_sha.as_deref(), Some("2222"));
        assert_eq!((refs[1].local_sha.as_str(), refs[1].remote_sha.as_deref()), ("3333", None));
        assert!(pushed_refs("one two three").is_err());
    }
}
