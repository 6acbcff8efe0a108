//! `reviewlock hook <runtime>` as each runtime runs it: a recorded payload on stdin (the
//! fixtures in `tests/fixtures/hooks/`, each citing where its shape comes from), the real binary,
//! a real server, and the answer read the way the runtime reads it.

#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;
mod process;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{ADMIN, Api};
use process::{database_url, free_port, listen, serve};
use serde_json::{Value, json};
use sqlx::PgPool;

/// A fixture's payload: its `//` comment lines dropped, `{{repo}}` replaced.
fn fixture(name: &str, repo: &Path) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hooks").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: String = text.lines().filter(|l| !l.starts_with("//")).collect::<Vec<_>>().join("\n");
    json.replace("{{repo}}", repo.to_str().unwrap())
}

/// Runs `reviewlock hook` with `payload` on stdin and only the environment given.
fn hook(args: &[&str], env: &[(&str, &str)], payload: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reviewlock"));
    command.arg("hook").args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for var in [
        "REVIEWLOCK_TOKEN",
        "REVIEWLOCK_URL",
        "REVIEWLOCK_TEAM",
        "REVIEWLOCK_AGENT",
        "REVIEWLOCK_ROOT",
        "REVIEWLOCK_MIN_SEQ",
    ] {
        command.env_remove(var);
    }
    command.envs(env.iter().copied());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// What the runtime makes of the hook's answer.
#[derive(Debug, PartialEq)]
enum Seen {
    Allowed,
    /// Blocked, with the reason the model reads.
    Blocked(String),
}

fn seen(runtime: &str, out: &Output) -> Seen {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{runtime}: stdout {stdout} stderr {stderr}");
    if runtime == "cursor" {
        let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
        return match answer["permission"].as_str() {
            None => Seen::Allowed,
            Some("deny") => Seen::Blocked(answer["agent_message"].as_str().unwrap().to_owned()),
            Some(other) => panic!("cursor: permission {other}"),
        };
    }
    if stdout.trim().is_empty() {
        return Seen::Allowed;
    }
    let answer: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    if runtime == "gemini" {
        assert_eq!(answer["decision"], "deny", "gemini: {stdout}");
        return Seen::Blocked(answer["reason"].as_str().unwrap().to_owned());
    }
    if runtime == "codex" {
        // Codex refuses a field it does not know, and then runs the tool: nothing else is said.
        let inner: Vec<&str> =
            answer["hookSpecificOutput"].as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(answer.as_object().unwrap().len(), 1, "codex: {stdout}");
        assert_eq!(
            inner,
            ["hookEventName", "permissionDecision", "permissionDecisionReason"],
            "codex: {stdout}"
        );
        assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    }
    let decision = match runtime {
        "claude-code" | "codex" => &answer["hookSpecificOutput"],
        _ => &answer,
    };
    assert_eq!(decision["permissionDecision"], "deny", "{runtime}: {stdout}");
    Seen::Blocked(decision["permissionDecisionReason"].as_str().unwrap().to_owned())
}

/// The team `acme`: agent `a` locked out of `auth` (`src/auth/**`), agent `b` free to write it.
/// The rejection's `Reviewlock-Seq`.
async fn locked_out_team(api: &Api) -> i64 {
    api.team("acme", Value::Null).await;
    for agent in ["a", "b"] {
        api.agent("acme", agent, json!({})).await;
    }
    api.agent("acme", "q", json!({ "can_review": true, "can_author": false })).await;
    let body = json!({ "key": "auth", "title": "auth", "author": "a", "paths": ["src/auth/**"] });
    api.post("/v1/teams/acme/artifacts", ADMIN, body).await.expect(201, None);
    let reject =
        json!({ "reviewer": "q", "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } });
    let rejected = api.post("/v1/teams/acme/artifacts/auth/versions/1/reviews", ADMIN, reject).await;
    rejected.expect(201, None);
    rejected.headers["reviewlock-seq"].to_str().unwrap().parse().unwrap()
}

fn git_repo() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let init = Command::new("git").arg("init").arg("-q").arg(repo.path()).status().unwrap();
    assert!(init.success());
    std::fs::create_dir_all(repo.path().join("src/auth")).unwrap();
    repo
}

#[sqlx::test]
async fn every_runtime_s_write_tools_are_checked_and_the_rest_pass(pool: PgPool) {
    let api = Api::new(pool.clone());
    locked_out_team(&api).await;
    let server = serve(&database_url(&pool), ADMIN).await;
    let (token_a, token_b) = (agent_token(&api, "a").await, agent_token(&api, "b").await);
    let repo = git_repo();
    let as_agent = |agent: &'static str, token: &str| {
        vec![
            ("REVIEWLOCK_URL", server.url.clone()),
            ("REVIEWLOCK_TEAM", "acme".to_owned()),
            ("REVIEWLOCK_AGENT", agent.to_owned()),
            ("REVIEWLOCK_TOKEN", token.to_owned()),
        ]
    };
    let (env_a, env_b) = (as_agent("a", &token_a), as_agent("b", &token_b));
    let run = |runtime: &str, name: &str, env: &[(&str, String)], args: &[&str]| {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let payload = fixture(&format!("{runtime}/{name}.json"), repo.path());
        seen(runtime, &hook(&[&[runtime][..], args].concat(), &env, &payload))
    };

    // Every file tool: the locked-out agent is blocked with a reason it can act on, another
    // agent goes through. The root is found by git from the payload's cwd.
    let writes = [
        ("claude-code", "write", "src/auth/login.rs"),
        ("claude-code", "edit", "src/auth/session.rs"),
        ("claude-code", "multi-edit", "src/auth/login.rs"),
        ("claude-code", "notebook-edit", "src/auth/analysis.ipynb"),
        ("claude-code", "write-dot-relative", "src/auth/login.rs"),
        ("claude-code", "write-subdirectory", "src/auth/login.rs"),
        ("copilot", "create", "src/auth/login.rs"),
        ("copilot", "edit", "src/auth/session.rs"),
        ("copilot", "apply-patch", "src/auth/login.rs"),
        ("cursor", "pre-tool-use-write", "src/auth/login.rs"),
        ("cursor", "pre-tool-use-str-replace", "src/auth/session.rs"),
        ("codex", "apply-patch", "src/auth/login.rs"),
        ("codex", "apply-patch-add", "src/auth/token.rs"),
        ("codex", "apply-patch-delete", "src/auth/old.rs"),
        ("gemini", "write-file", "src/auth/login.rs"),
        ("gemini", "replace", "src/auth/session.rs"),
    ];
    for (runtime, name, file) in writes {
        let Seen::Blocked(reason) = run(runtime, name, &env_a, &[]) else {
            panic!("{runtime}/{name}: agent a is locked out of {file}");
        };
        assert!(
            reason.starts_with(&format!(
                "reviewlock denies agent 'a' this write: '{file}' belongs to artifact 'auth', which agent 'a' is locked out of"
            )),
            "{runtime}/{name}: {reason}"
        );
        assert!(
            reason.contains("ask the coordinator to reassign artifact 'auth' to another agent"),
            "{reason}"
        );
        assert_eq!(run(runtime, name, &env_b, &[]), Seen::Allowed, "{runtime}/{name}: agent b");
    }
    // A patch of three files, one of them denied: the whole call is blocked, naming that one.
    let Seen::Blocked(reason) = run("copilot", "apply-patch", &env_a, &[]) else { panic!() };
    assert!(!reason.contains("README.md") && !reason.contains("docs/login.md"), "{reason}");
    // A Codex patch that adds, updates, deletes and moves files outside `auth` but moves one into
    // it: the move's destination is a write, and the whole call is blocked naming only it.
    let Seen::Blocked(reason) = run("codex", "apply-patch", &env_a, &[]) else { panic!("codex patch") };
    assert!(reason.contains("'src/auth/login.rs' belongs to artifact 'auth'"), "{reason}");
    for file in ["README.md", "docs/login.md", "src/old.rs", "src/legacy.rs"] {
        assert!(!reason.contains(file), "{file}: {reason}");
    }

    // Calls that write nothing pass untouched; shells by the --shell policy.
    for (runtime, name) in
        [("claude-code", "read"), ("copilot", "view"), ("codex", "mcp-tool"), ("gemini", "read-file")]
    {
        assert_eq!(run(runtime, name, &env_a, &[]), Seen::Allowed, "{runtime}/{name}");
    }
    for (runtime, name) in [
        ("claude-code", "bash"),
        ("copilot", "bash"),
        ("cursor", "before-shell-execution"),
        ("codex", "bash"),
        ("gemini", "run-shell-command"),
    ] {
        assert_eq!(
            run(runtime, name, &env_a, &[]),
            Seen::Allowed,
            "{runtime}/{name}: --shell allow by default"
        );
        let Seen::Blocked(reason) = run(runtime, name, &env_a, &["--shell", "deny"]) else {
            panic!("{runtime}/{name}: --shell deny");
        };
        assert!(reason.contains("--shell deny"), "{reason}");
    }

    // A file outside the repository is blocked without asking, whoever writes it.
    let Seen::Blocked(reason) = run("claude-code", "write-outside", &env_b, &[]) else { panic!() };
    assert!(reason.contains("outside the repository at"), "{reason}");

    // --root overrides git: with the parent directory as root, the same file is no artifact's.
    let parent = repo.path().parent().unwrap().to_str().unwrap().to_owned();
    assert_eq!(run("claude-code", "write", &env_a, &["--root", &parent]), Seen::Allowed);

    // An agent token acts only as its own agent: naming another agent blocks.
    let mut borrowed = env_a.clone();
    borrowed[2].1 = "b".into();
    let Seen::Blocked(reason) = run("claude-code", "write", &borrowed, &[]) else { panic!() };
    assert!(reason.starts_with("reviewlock could not be asked") && reason.contains("403"), "{reason}");

    // Without REVIEWLOCK_AGENT, an agent token asks for its own agent: the server names it, and
    // the reason names it too.
    fn unnamed(env: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
        env.iter().filter(|(k, _)| *k != "REVIEWLOCK_AGENT").cloned().collect()
    }
    let Seen::Blocked(reason) = run("claude-code", "write", &unnamed(&env_a), &[]) else { panic!() };
    assert!(
        reason.starts_with("reviewlock denies agent 'a' this write") && reason.contains("'auth'"),
        "{reason}"
    );
    assert_eq!(run("claude-code", "write", &unnamed(&env_b), &[]), Seen::Allowed);

    // A bad token is no answer: blocked.
    let mut bad = env_b.clone();
    bad[3].1 = "rl_nope".into();
    let Seen::Blocked(reason) = run("cursor", "pre-tool-use-write", &bad, &[]) else { panic!() };
    assert!(reason.contains("unauthenticated"), "{reason}");
}

/// One Claude Code or Codex session that spawns its team as subagents: one environment, one
/// token, and each call checked as the agent its `agent_type` names (R16).
#[sqlx::test]
async fn each_subagent_of_one_session_is_checked_as_its_own_agent(pool: PgPool) {
    let api = Api::new(pool.clone());
    locked_out_team(&api).await;
    api.agent("acme", "a", json!({ "aliases": ["runtime-engineer"] })).await;
    api.agent("acme", "b", json!({ "aliases": ["revision-engineer", "worker"] })).await;
    let session = json!({ "name": "session", "scope": "read" });
    let token = api.post("/v1/teams/acme/tokens", ADMIN, session).await.expect(201, None)["token"].clone();
    let server = serve(&database_url(&pool), ADMIN).await;
    let repo = git_repo();
    // The session's own agent is `b`: a subagent is never checked as it.
    let env = [
        ("REVIEWLOCK_URL", server.url.as_str()),
        ("REVIEWLOCK_TEAM", "acme"),
        ("REVIEWLOCK_TOKEN", token.as_str().unwrap()),
        ("REVIEWLOCK_AGENT", "b"),
    ];
    let run = |runtime: &str, name: &str, replace: &[(&str, &str)]| {
        let mut payload = fixture(&format!("{runtime}/{name}.json"), repo.path());
        for (from, to) in replace {
            payload = payload.replace(from, to);
        }
        seen(runtime, &hook(&[runtime], &env, &payload))
    };
    let subagent = |name: &'static str| ("\"agent_type\":\"runtime-engineer\"", name);

    // Two subagents of one session: the locked one denied, the other allowed.
    let Seen::Blocked(reason) = run("claude-code", "subagent-write", &[]) else {
        panic!("runtime-engineer is a")
    };
    assert!(reason.starts_with("reviewlock denies agent 'a' this write: 'src/auth/login.rs'"), "{reason}");
    let reviser = subagent("\"agent_type\":\"revision-engineer\"");
    assert_eq!(run("claude-code", "subagent-write", &[reviser]), Seen::Allowed);
    // A subagent whose name is no roster agent's: denied where a lockout covers, never the
    // session's `b`; allowed where none does.
    let explore = subagent("\"agent_type\":\"Explore\"");
    let Seen::Blocked(reason) = run("claude-code", "subagent-write", &[explore]) else { panic!("Explore") };
    assert!(reason.contains("reviewlock cannot tell which agent is writing 'src/auth/login.rs'"), "{reason}");
    assert!(reason.contains("(unknown_writer: ") && reason.contains("locked for a"), "{reason}");
    let readme = ("src/auth/login.rs", "README.md");
    assert_eq!(run("claude-code", "subagent-write", &[explore, readme]), Seen::Allowed);
    // Under `--agent`, agent_type alone: the agent it names, else the session's agent.
    let main = ("\"agent_id\":\"a1b2c3d4e5f6a7b8c\",", "");
    assert!(
        matches!(run("claude-code", "subagent-write", &[main]), Seen::Blocked(_)),
        "--agent runtime-engineer"
    );
    assert_eq!(run("claude-code", "subagent-write", &[main, explore]), Seen::Allowed, "falls back to b");
    // Codex sends the same two fields for its subagents: `worker` names b, who may write.
    assert_eq!(run("codex", "subagent-apply-patch", &[]), Seen::Allowed);
    let unnamed = ("\"agent_type\":\"worker\"", "\"agent_type\":\"explorer\"");
    let Seen::Blocked(reason) = run("codex", "subagent-apply-patch", &[unnamed]) else {
        panic!("codex explorer")
    };
    assert!(reason.contains("(unknown_writer: "), "{reason}");
}

/// `REVIEWLOCK_MIN_SEQ` (or `--min-seq`), the seq of the write that set up the agent's session,
/// goes with the hook's check as `min_seq`, so a replica that has not applied that write yet
/// does not answer without it; without it the check carries none. The answer is the lockout's
/// either way, and a seq the server refuses blocks the call.
#[sqlx::test]
async fn the_hook_sends_reviewlock_min_seq_with_its_check(pool: PgPool) {
    let api = Api::new(pool.clone());
    let rejected = locked_out_team(&api).await;
    let (token_a, token_b) = (agent_token(&api, "a").await, agent_token(&api, "b").await);
    let server = listen(api.app.clone()).await;
    let repo = git_repo();
    let payload = fixture("claude-code/write.json", repo.path());
    // The hook as agent `token`'s agent, with `REVIEWLOCK_MIN_SEQ` when given and `args`: what
    // the runtime saw, and the body of the one check it asked.
    let ask = async |token: &str, min_seq: Option<String>, args: &[&str]| {
        let mut env = vec![
            ("REVIEWLOCK_URL", server.url.clone()),
            ("REVIEWLOCK_TEAM", "acme".to_owned()),
            ("REVIEWLOCK_TOKEN", token.to_owned()),
        ];
        env.extend(min_seq.map(|seq| ("REVIEWLOCK_MIN_SEQ", seq)));
        let args: Vec<String> = [&["claude-code"][..], args].concat().iter().map(|a| a.to_string()).collect();
        let payload = payload.clone();
        let out = tokio::task::spawn_blocking(move || {
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            hook(&args, &env, &payload)
        })
        .await
        .unwrap();
        let received = server.take();
        assert_eq!(received.len(), 1, "one check: {received:?}");
        assert_eq!(
            (received[0].method.as_str(), received[0].path.as_str()),
            ("POST", "/v1/teams/acme/checks")
        );
        (seen("claude-code", &out), received[0].body.clone())
    };
    let at = Some(rejected.to_string());
    let paths = json!(["src/auth/login.rs"]);

    let (Seen::Blocked(reason), body) = ask(&token_a, at.clone(), &[]).await else {
        panic!("a is locked out at the rejection's seq")
    };
    assert!(reason.starts_with("reviewlock denies agent 'a' this write: 'src/auth/login.rs'"), "{reason}");
    assert_eq!(body, json!({ "paths": paths, "min_seq": rejected }));
    let (saw, body) = ask(&token_b, at.clone(), &[]).await;
    assert_eq!(saw, Seen::Allowed, "b may write it");
    assert_eq!(body, json!({ "paths": paths, "min_seq": rejected }));
    let (saw, body) = ask(&token_a, None, &["--min-seq", &rejected.to_string()]).await;
    assert!(matches!(saw, Seen::Blocked(_)), "--min-seq: {saw:?}");
    assert_eq!(body, json!({ "paths": paths, "min_seq": rejected }));

    // Without it, no min_seq, and the same answers.
    let (saw, body) = ask(&token_a, None, &[]).await;
    assert!(matches!(saw, Seen::Blocked(_)), "{saw:?}");
    assert_eq!(body, json!({ "paths": paths }));
    let (saw, body) = ask(&token_b, None, &[]).await;
    assert_eq!(saw, Seen::Allowed);
    assert_eq!(body, json!({ "paths": paths }));

    // A seq the server refuses is no answer: blocked, even for b.
    let (Seen::Blocked(reason), body) = ask(&token_b, Some("-1".into()), &[]).await else {
        panic!("min_seq -1 is refused")
    };
    assert!(reason.starts_with("reviewlock could not be asked") && reason.contains("min_seq"), "{reason}");
    assert_eq!(body["min_seq"], -1);
}

async fn agent_token(api: &Api, agent: &str) -> String {
    let body = json!({ "name": format!("{agent}-hook"), "scope": "agent", "agent": agent });
    let reply = api.post("/v1/teams/acme/tokens", ADMIN, body).await;
    reply.expect(201, None)["token"].as_str().unwrap().to_owned()
}

/// A server that cannot answer blocks the call in every runtime, fast; `--fail-open` lets it
/// through and says so.
#[test]
fn no_answer_blocks_unless_fail_open() {
    let repo = git_repo();
    let down = format!("http://127.0.0.1:{}", free_port());
    // Accepts connections (the kernel does, into the backlog) and never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_url = format!("http://{}", silent.local_addr().unwrap());
    let failing = answering_500();
    let env = |url: &str| {
        vec![
            ("REVIEWLOCK_URL", url.to_owned()),
            ("REVIEWLOCK_TEAM", "acme".to_owned()),
            ("REVIEWLOCK_AGENT", "a".to_owned()),
            ("REVIEWLOCK_TOKEN", "rl_token".to_owned()),
        ]
    };
    let run = |runtime: &str, name: &str, url: &str, args: &[&str]| {
        let env = env(url);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let out = hook(
            &[&[runtime][..], args].concat(),
            &env,
            &fixture(&format!("{runtime}/{name}.json"), repo.path()),
        );
        (seen(runtime, &out), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for (runtime, name) in [
        ("claude-code", "write"),
        ("copilot", "apply-patch"),
        ("cursor", "pre-tool-use-write"),
        ("codex", "apply-patch"),
        ("gemini", "write-file"),
    ] {
        let (Seen::Blocked(reason), _) = run(runtime, name, &down, &[]) else {
            panic!("{runtime}: server down")
        };
        assert!(reason.starts_with("reviewlock could not be asked"), "{reason}");
        assert!(reason.contains("cannot reach the server"), "{reason}");

        let started = Instant::now();
        let (Seen::Blocked(reason), _) = run(runtime, name, &silent_url, &["--timeout", "300ms"]) else {
            panic!("{runtime}: a server that never answers")
        };
        assert!(reason.contains("did not answer within 300 ms"), "{reason}");
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());

        let (Seen::Blocked(reason), _) = run(runtime, name, &failing, &[]) else { panic!("{runtime}: 500") };
        assert!(reason.contains("500"), "{reason}");

        let (seen, stderr) = run(runtime, name, &down, &["--fail-open"]);
        assert_eq!(seen, Seen::Allowed, "{runtime}: --fail-open");
        assert!(
            stderr.contains("--fail-open: letting this call through although reviewlock could not be asked"),
            "{stderr}"
        );
    }
    // A payload that cannot be read is blocked too, in the runtime's format.
    for runtime in ["claude-code", "copilot", "cursor", "codex", "gemini"] {
        let out = hook(&[runtime], &[], "{not json");
        let Seen::Blocked(reason) = seen(runtime, &out) else { panic!("{runtime}: unreadable payload") };
        assert!(reason.contains("the hook payload cannot be read"), "{reason}");
    }
    // As is a hook that was never told whom to ask about.
    let out = hook(&["claude-code"], &[], &fixture("claude-code/write.json", repo.path()));
    let Seen::Blocked(reason) = seen("claude-code", &out) else { panic!() };
    assert!(reason.contains("set REVIEWLOCK_TEAM (--team), REVIEWLOCK_TOKEN (--token)"), "{reason}");
    drop(silent);
}

/// A server that answers every request 500.
fn answering_500() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let body = r#"{"code":"internal","detail":"boom"}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/problem+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}
