//! `reviewlock guard` and `reviewlock verify` as git and CI run them (R17): real repositories in
//! temporary directories (no global or system git configuration), the real binary installed as
//! their hooks, and a real server.

#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;
mod process;

use std::path::Path;
use std::process::{Command, Output};

use common::{ADMIN, Api};
use process::{database_url, free_port, serve};
use serde_json::{Value, json};
use sqlx::PgPool;

const BIN: &str = env!("CARGO_BIN_EXE_reviewlock");

/// A repository of its own, and the environment its git commands (and so its hooks) run in.
struct Repo {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let mut repo = Repo { dir, env: Vec::new() };
        repo.must(&["init", "-q", "-b", "main"]);
        repo.must(&["config", "user.name", "Someone"]);
        repo.must(&["config", "user.email", "nobody@example.com"]);
        repo.must(&["config", "commit.gpgsign", "false"]);
        repo.env.clear();
        repo
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Sets a variable for every later command (hooks inherit it).
    fn set(&mut self, name: &str, value: &str) {
        self.env.retain(|(n, _)| n != name);
        self.env.push((name.to_owned(), value.to_owned()));
    }

    fn command(&self, program: &str, email: &str) -> Command {
        let mut command = Command::new(program);
        command.current_dir(self.path());
        for var in [
            "REVIEWLOCK_TOKEN",
            "REVIEWLOCK_URL",
            "REVIEWLOCK_TEAM",
            "REVIEWLOCK_AGENT",
            "REVIEWLOCK_FAIL_OPEN",
        ] {
            command.env_remove(var);
        }
        command
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", self.path())
            .env("GIT_AUTHOR_EMAIL", email)
            .env("GIT_COMMITTER_EMAIL", email)
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        command
    }

    fn git_as(&self, email: &str, args: &[&str]) -> Output {
        self.command("git", email).args(args).output().unwrap()
    }

    fn git(&self, args: &[&str]) -> Output {
        self.git_as("nobody@example.com", args)
    }

    fn must(&self, args: &[&str]) -> String {
        let out = self.git(args);
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
        text(&out.stdout).trim().to_owned()
    }

    fn reviewlock(&self, args: &[&str]) -> Output {
        self.command(BIN, "nobody@example.com").args(args).output().unwrap()
    }

    fn write(&self, file: &str, content: &str) {
        let path = self.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// Writes `file`, stages everything and commits as `email`; the new commit's SHA.
    fn commit(&self, email: &str, file: &str, message: &str) -> String {
        self.write(file, message);
        self.must(&["add", "-A"]);
        let out = self.git_as(email, &["commit", "-q", "-m", message]);
        assert!(out.status.success(), "commit {message}: {}", text(&out.stderr));
        self.must(&["rev-parse", "HEAD"])
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The team `acme`: `a` (a@example.com) is locked out of `web` (`src/web/**`); `b`
/// (b@example.com) may write it; `q` reviews.
async fn team(api: &Api) -> String {
    api.team("acme", Value::Null).await;
    for agent in ["a", "b"] {
        api.agent("acme", agent, json!({ "aliases": [format!("{agent}@example.com")] })).await;
    }
    api.agent("acme", "q", json!({ "can_review": true, "can_author": false })).await;
    create(api, "web", "a", "r1").await;
    review(api, "web", 1, "reject").await;
    api.token("acme", "read").await
}

async fn create(api: &Api, key: &str, author: &str, git_ref: &str) {
    let body = json!({ "key": key, "title": key, "author": author, "paths": [format!("src/{key}/**")], "ref": git_ref });
    api.post("/v1/teams/acme/artifacts", ADMIN, body).await.expect(201, None);
}

async fn review(api: &Api, key: &str, n: i32, verdict: &str) {
    let body = match verdict {
        "approve" => json!({ "reviewer": "q", "verdict": "approve" }),
        _ => {
            json!({ "reviewer": "q", "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } })
        }
    };
    api.post(&format!("/v1/teams/acme/artifacts/{key}/versions/{n}/reviews"), ADMIN, body)
        .await
        .expect(201, None);
}

fn configure(repo: &mut Repo, url: &str, token: &str) {
    repo.set("REVIEWLOCK_URL", url);
    repo.set("REVIEWLOCK_TEAM", "acme");
    repo.set("REVIEWLOCK_TOKEN", token);
}

fn install(repo: &Repo) {
    let out = repo.reviewlock(&["guard", "install"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn install_chains_the_hook_that_was_there_and_is_idempotent() {
    let mut repo = Repo::new();
    let hooks = repo.path().join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let mine = "#!/bin/sh\necho mine >> \"$(git rev-parse --git-dir)/mine-ran\"\nexit \"${MINE_EXIT:-0}\"\n";
    std::fs::write(hooks.join("pre-commit"), mine).unwrap();
    std::process::Command::new("chmod").arg("+x").arg(hooks.join("pre-commit")).status().unwrap();
    install(&repo);
    install(&repo);
    assert_eq!(std::fs::read_to_string(hooks.join("pre-commit.local")).unwrap(), mine, "kept, once");
    assert!(!hooks.join("pre-commit.local.local").exists());
    assert!(!hooks.join("pre-push.local").exists(), "nothing to chain");
    for hook in ["pre-commit", "pre-push"] {
        let text = std::fs::read_to_string(hooks.join(hook)).unwrap();
        assert!(text.contains("reviewlock guard hook") && text.contains(&format!("guard {hook}")), "{text}");
    }

    // A commit runs the old hook first, then the guard, which (unconfigured) refuses.
    repo.write("README.md", "x");
    repo.must(&["add", "-A"]);
    let out = repo.git(&["commit", "-q", "-m", "first"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("reviewlock is not configured: set REVIEWLOCK_TEAM"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(repo.path().join(".git/mine-ran")).unwrap(), "mine\n");
    // The old hook refusing refuses without asking reviewlock.
    repo.set("MINE_EXIT", "3");
    let out = repo.git(&["commit", "-q", "-m", "first"]);
    assert!(!out.status.success() && !text(&out.stderr).contains("reviewlock"), "{}", text(&out.stderr));
    // With --fail-open (and no server) the commit goes through, saying why.
    repo.set("MINE_EXIT", "0");
    repo.set("REVIEWLOCK_FAIL_OPEN", "true");
    let out = repo.git(&["commit", "-q", "-m", "first"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--fail-open"), "{}", text(&out.stderr));

    // core.hooksPath is where git looks, so where the guard goes.
    repo.must(&["config", "core.hooksPath", "team-hooks"]);
    install(&repo);
    assert!(
        repo.path().join("team-hooks/pre-commit").exists()
            && repo.path().join("team-hooks/pre-push").exists()
    );
}

#[sqlx::test]
async fn a_commit_is_checked_for_its_author_whatever_wrote_the_files(pool: PgPool) {
    let api = Api::new(pool.clone());
    let token = team(&api).await;
    let server = serve(&database_url(&pool), ADMIN).await;
    let mut repo = Repo::new();
    install(&repo);
    configure(&mut repo, &server.url, &token);
    repo.commit("b@example.com", "src/web/old.rs", "b starts web");
    repo.commit("b@example.com", "src/web/moved.rs", "b adds a file");

    // A file written by a shell, staged by the locked-out author (named by e-mail): refused.
    let shell = repo.command("sh", "a@example.com").args(["-c", "echo x > src/web/a.rs"]).status().unwrap();
    assert!(shell.success());
    repo.must(&["add", "src/web/a.rs"]);
    let out = repo.git_as("a@example.com", &["commit", "-q", "-m", "a writes web"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("reviewlock guard: this commit is refused"), "{stderr}");
    assert!(
        stderr.contains("reviewlock denies agent 'a' this write: 'src/web/a.rs' belongs to artifact 'web'"),
        "{stderr}"
    );
    // Another agent commits the same change.
    let out = repo.git_as("b@example.com", &["commit", "-q", "-m", "b writes web"]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // REVIEWLOCK_AGENT names the committer over the e-mail; an author no agent has is the most
    // restricted writer.
    repo.write("src/web/c.rs", "c");
    repo.must(&["add", "-A"]);
    repo.set("REVIEWLOCK_AGENT", "a");
    let out = repo.git_as("b@example.com", &["commit", "-q", "-m", "as a"]);
    assert!(!out.status.success() && text(&out.stderr).contains("agent 'a'"), "{}", text(&out.stderr));
    repo.env.retain(|(n, _)| n != "REVIEWLOCK_AGENT");
    let out = repo.git_as("stranger@example.com", &["commit", "-q", "-m", "stranger"]);
    assert!(!out.status.success() && text(&out.stderr).contains("unknown_writer"), "{}", text(&out.stderr));
    repo.must(&["reset", "-q", "--hard"]);

    // A deletion and a rename out of the artifact write its files too.
    repo.must(&["rm", "-q", "src/web/old.rs"]);
    let out = repo.git_as("a@example.com", &["commit", "-q", "-m", "a deletes"]);
    assert!(!out.status.success() && text(&out.stderr).contains("'src/web/old.rs'"), "{}", text(&out.stderr));
    repo.must(&["reset", "-q", "--hard"]);
    repo.must(&["mv", "src/web/moved.rs", "moved.rs"]);
    let out = repo.git_as("a@example.com", &["commit", "-q", "-m", "a renames"]);
    assert!(
        !out.status.success() && text(&out.stderr).contains("'src/web/moved.rs'"),
        "{}",
        text(&out.stderr)
    );
    repo.must(&["reset", "-q", "--hard"]);
    // Files no artifact covers are anyone's.
    repo.write("docs/notes.md", "n");
    repo.must(&["add", "-A"]);
    assert!(repo.git_as("a@example.com", &["commit", "-q", "-m", "a writes docs"]).status.success());

    // A server that cannot be reached refuses; --fail-open lets the commit through.
    repo.set("REVIEWLOCK_URL", &format!("http://127.0.0.1:{}", free_port()));
    repo.write("docs/more.md", "m");
    repo.must(&["add", "-A"]);
    let out = repo.git_as("b@example.com", &["commit", "-q", "-m", "down"]);
    assert!(!out.status.success(), "fails closed");
    assert!(text(&out.stderr).contains("cannot reach the server"), "{}", text(&out.stderr));
    repo.set("REVIEWLOCK_FAIL_OPEN", "true");
    assert!(repo.git_as("b@example.com", &["commit", "-q", "-m", "down"]).status.success());
}

#[sqlx::test]
async fn a_push_names_the_one_commit_of_five_whose_agent_is_locked_out(pool: PgPool) {
    let api = Api::new(pool.clone());
    let token = team(&api).await;
    let server = serve(&database_url(&pool), ADMIN).await;
    let remote = tempfile::tempdir().unwrap();
    let mut repo = Repo::new();
    repo.must(&["init", "-q", "--bare", remote.path().to_str().unwrap()]);
    repo.must(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    configure(&mut repo, &server.url, &token);

    let first = repo.commit("b@example.com", "src/web/one.rs", "b writes web");
    repo.commit("a@example.com", "docs/a.md", "a writes docs");
    let before = repo.commit("b@example.com", "src/web/two.rs", "b writes more web");
    repo.write("src/web/credited.rs", "x");
    repo.must(&["add", "-A"]);
    let trailer =
        repo.git_as("a@example.com", &["commit", "-q", "-m", "written for b", "-m", "Reviewlock-Agent: b"]);
    assert!(trailer.status.success());
    let bad = repo.commit("a@example.com", "src/web/three.rs", "a sneaks into web");
    // Installed now: the commits above were made without the pre-commit hook (`--no-verify`,
    // or a clone without it); the push is where they are caught.
    install(&repo);

    // A new branch: all five commits are the remote's to get; one is refused, by name.
    let out = repo.git(&["push", "-q", "origin", "main"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("this push is refused: 1 of its 5 commits"), "{stderr}");
    let line =
        format!("  {} a sneaks into web: agent 'a': 'src/web/three.rs' belongs to artifact 'web'", &bad[..7]);
    assert!(stderr.contains(&line), "{stderr}");
    for fine in ["b writes web", "a writes docs", "written for b"] {
        assert!(!stderr.contains(fine), "{fine}: {stderr}");
    }
    assert!(repo.git(&["ls-remote", "origin"]).stdout.is_empty(), "nothing landed");

    // Up to the commit before: lands. Then only the commits the remote lacks are checked.
    let out = repo.git(&["push", "-q", "origin", &format!("{before}:refs/heads/main")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = repo.git(&["push", "-q", "origin", "main"]);
    assert!(text(&out.stderr).contains("1 of its 2 commits"), "{}", text(&out.stderr));
    // A trailer crediting a locked-out agent refuses a commit by anyone.
    repo.must(&["reset", "-q", "--hard", &before]);
    repo.write("src/web/four.rs", "x");
    repo.must(&["add", "-A"]);
    let credited =
        repo.git_as("b@example.com", &["commit", "-q", "-m", "credits a", "-m", "Reviewlock-Agent: a"]);
    assert!(credited.status.success(), "the pre-commit hook checks the author, b");
    let out = repo.git(&["push", "-q", "origin", "main"]);
    assert!(text(&out.stderr).contains("credits a: agent 'a'"), "{}", text(&out.stderr));
    // Deleting a branch pushes no commit.
    repo.must(&["push", "-q", "origin", &format!("{first}:refs/heads/old")]);
    let out = repo.git(&["push", "-q", "origin", ":refs/heads/old"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[sqlx::test]
async fn verify_lets_land_only_what_an_approved_version_names(pool: PgPool) {
    let api = Api::new(pool.clone());
    let token = team(&api).await;
    let server = serve(&database_url(&pool), ADMIN).await;
    let mut repo = Repo::new();
    configure(&mut repo, &server.url, &token);
    let base = repo.commit("b@example.com", "README.md", "start");
    let approved = repo.commit("b@example.com", "src/site/a.rs", "site");
    let rejected = repo.commit("b@example.com", "src/api/x.rs", "api");
    let unreviewed = repo.commit("b@example.com", "src/docs/x.md", "docs");
    let superseded = repo.commit("b@example.com", "src/cli/a.rs", "cli 1");
    let current = repo.commit("b@example.com", "src/cli/b.rs", "cli 2");
    create(&api, "site", "b", &approved).await;
    review(&api, "site", 1, "approve").await;
    create(&api, "api", "a", &rejected[..7]).await;
    review(&api, "api", 1, "reject").await;
    create(&api, "docs", "b", &unreviewed).await;
    create(&api, "cli", "b", &superseded).await;
    let v2 = json!({ "author": "b", "ref": current.to_uppercase() });
    api.post("/v1/teams/acme/artifacts/cli/versions", ADMIN, v2).await.expect(201, None);
    review(&api, "cli", 2, "approve").await;

    let (code, out, _) = verify(&repo, &["--ref", &approved]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("{} may land", &approved[..7])), "{out}");
    assert!(out.contains("approved  site (src/site/a.rs): version 1 of 'site' was approved"), "{out}");
    assert_eq!(
        verify(&repo, &["--ref", &current[..10]]).0,
        Some(0),
        "a short SHA, a version recorded in upper case"
    );
    assert_eq!(verify(&repo, &["--ref", "HEAD"]).0, Some(0));
    for (sha, why) in [
        (&rejected, "version 1 of 'api' was rejected"),
        (&unreviewed, "version 1 of 'docs' awaits review"),
        (&superseded, "version 1 of 'cli' was superseded by version 2"),
    ] {
        let (code, out, _) = verify(&repo, &["--ref", sha]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("may not land") && out.contains(why), "{out}");
        assert!(!out.contains("::error"), "text only: {out}");
    }
    let (code, out, _) = verify(&repo, &["--ref", &rejected, "--format", "github"]);
    assert_eq!(code, Some(1));
    let annotation = format!(
        "::error file=src/api/x.rs,title=reviewlock::reviewlock: {} may not land: version 1 of 'api' was rejected",
        &rejected[..7]
    );
    assert!(out.lines().any(|l| l == annotation), "{out}");
    // Files no artifact covers may land.
    assert_eq!(verify(&repo, &["--ref", &base]).0, Some(0));

    // A range whose head is approved, but one of whose commits is by an agent locked out of what
    // it changed (here reverted before the head, so the range's diff does not show it).
    repo.must(&["checkout", "-q", "-b", "feature", &base]);
    let sneak = repo.commit("a@example.com", "src/web/z.rs", "a touches web");
    repo.must(&["rm", "-q", "src/web/z.rs"]);
    assert!(repo.git_as("b@example.com", &["commit", "-q", "-m", "b reverts it"]).status.success());
    let head = repo.commit("b@example.com", "src/site/b.rs", "b writes site");
    let v2 = json!({ "author": "b", "ref": head });
    api.post("/v1/teams/acme/artifacts/site/versions", ADMIN, v2).await.expect(201, None);
    review(&api, "site", 2, "approve").await;
    assert_eq!(verify(&repo, &["--ref", &head]).0, Some(0), "the head alone is approved");
    let range = format!("{base}..{head}");
    let (code, out, _) = verify(&repo, &["--ref", &head, "--range", &range, "--format", "github"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains(&format!("  {} a touches web: agent 'a': 'src/web/z.rs'", &sneak[..7])), "{out}");
    assert!(out.contains("::error title=reviewlock::reviewlock: commit"), "{out}");

    // Unreachable: cannot decide, so may not land.
    repo.set("REVIEWLOCK_URL", &format!("http://127.0.0.1:{}", free_port()));
    let (code, _, err) = verify(&repo, &["--ref", &approved]);
    assert_eq!(code, Some(2));
    assert!(err.contains("could not decide"), "{err}");
}

/// `reviewlock verify` in the repository: its exit code, stdout and stderr.
fn verify(repo: &Repo, args: &[&str]) -> (Option<i32>, String, String) {
    let out = repo.reviewlock(&[&["verify"][..], args].concat());
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}
