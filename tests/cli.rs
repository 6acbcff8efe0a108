//! The binary's commands besides `serve`, run as an operator or a hook would run them.

#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;
mod process;

use std::process::{Command, Output};

use common::{ADMIN, Api};
use hyper::Method;
use process::{Serve, database_url, listen, serve, server_url};
use serde_json::json;
use sqlx::PgPool;

fn reviewlock(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reviewlock"));
    command.args(args);
    for var in ["REVIEWLOCK_TOKEN", "REVIEWLOCK_URL", "REVIEWLOCK_MIN_SEQ"] {
        command.env_remove(var);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

#[sqlx::test]
async fn token_create_prints_only_the_secret(pool: PgPool) {
    let api = Api::new(pool.clone());
    api.team("acme", serde_json::Value::Null).await;
    let url = database_url(&pool);
    let out = reviewlock(
        &["token", "create", "--team", "acme", "--scope", "coordinator", "--name", "ops"],
        &[("DATABASE_URL", &url)],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let secret = stdout.trim();
    assert_eq!(stdout.lines().count(), 1, "only the secret on stdout");
    assert!(secret.starts_with("rl_"));
    // The secret works as a coordinator token of the team.
    api.put("/v1/teams/acme/agents/a", secret, json!({})).await.expect(201, None);
    let event: String = sqlx::query_scalar(
        "select type from events where team_id = 'acme' and token_name = 'reviewlock-cli'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(event, "token.created");

    for (args, message) in [
        (vec!["--team", "nope", "--scope", "read", "--name", "x"], "not_found"),
        (vec!["--team", "acme", "--scope", "root", "--name", "x"], "scope"),
        (vec!["--team", "acme", "--scope", "agent", "--name", "x"], "agent"),
    ] {
        let out = reviewlock(&[&["token", "create"][..], &args].concat(), &[("DATABASE_URL", &url)]);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "no secret on failure");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[sqlx::test]
async fn migrate_creates_and_migrates_a_database(pool: PgPool) {
    let url = format!("{}_migrated", database_url(&pool));
    let out = reviewlock(&["migrate"], &[("DATABASE_URL", &url)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let migrated = PgPool::connect(&url).await.unwrap();
    let applied: i64 =
        sqlx::query_scalar("select count(*) from _sqlx_migrations").fetch_one(&migrated).await.unwrap();
    assert_eq!(applied, reviewlock::MIGRATOR.iter().count() as i64);
    migrated.close().await;
    let name = url.rsplit_once('/').unwrap().1;
    let admin = PgPool::connect(&server_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("drop database \"{name}\""))).execute(&admin).await.unwrap();
}

#[sqlx::test]
async fn check_exits_0_when_allowed_and_1_with_the_denials(pool: PgPool) {
    let api = Api::new(pool.clone());
    api.team("acme", serde_json::Value::Null).await;
    for agent in ["a", "b"] {
        api.agent("acme", agent, json!({})).await;
    }
    api.agent("acme", "q", json!({ "can_review": true, "can_author": false })).await;
    let body = json!({ "key": "auth", "title": "auth", "author": "a", "paths": ["src/auth/**"] });
    api.post("/v1/teams/acme/artifacts", ADMIN, body).await.expect(201, None);
    let reject =
        json!({ "reviewer": "q", "verdict": "reject", "reason": "no", "remedy": { "action": "reassign" } });
    api.post("/v1/teams/acme/artifacts/auth/versions/1/reviews", ADMIN, reject).await.expect(201, None);
    let read = api.token("acme", "read").await;
    let server = serve(&database_url(&pool), ADMIN).await;
    let url = server.url.clone();
    let env = [("REVIEWLOCK_URL", url.as_str()), ("REVIEWLOCK_TOKEN", read.as_str())];

    let denied =
        reviewlock(&["check", "--team", "acme", "--agent", "a", "src/auth/login.rs", "README.md"], &env);
    assert_eq!(denied.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&denied.stderr);
    assert!(stderr.starts_with("denied (agent_locked_out) by artifact 'auth': "), "{stderr}");

    // However a hook spells the file (R15).
    for spelling in ["./src/auth/login.rs", "src//auth/login.rs", "src/x/../auth/login.rs"] {
        let denied = reviewlock(&["check", "--team", "acme", "--agent", "a", spelling], &env);
        assert_eq!(denied.status.code(), Some(1), "{spelling}");
    }
    // A path outside the repository is not a question it can answer: relativise it.
    let outside = reviewlock(&["check", "--team", "acme", "--agent", "a", "/abs/src/auth/login.rs"], &env);
    assert_eq!(outside.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&outside.stderr);
    assert!(stderr.contains("invalid_field") && stderr.contains("absolute"), "{stderr}");

    let allowed = reviewlock(&["check", "--team", "acme", "--agent", "b", "src/auth/login.rs"], &env);
    assert_eq!(allowed.status.code(), Some(0), "{}", String::from_utf8_lossy(&allowed.stderr));

    // A question that cannot be answered is neither yes nor no.
    let wrong_token = [("REVIEWLOCK_URL", url.as_str()), ("REVIEWLOCK_TOKEN", "rl_nope")];
    let out = reviewlock(&["check", "--team", "acme", "--agent", "b", "x.rs"], &wrong_token);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unauthenticated"));
    drop(server);
    let out = reviewlock(&["check", "--team", "acme", "--agent", "b", "x.rs"], &env);
    assert_eq!(out.status.code(), Some(2), "no server");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("cannot reach the server at {url}")), "{stderr}");
}

/// `reviewlock check --min-seq` (or `REVIEWLOCK_MIN_SEQ`) asks with `min_seq`; without it the
/// check carries none. The exit code is the lockout's either way.
#[sqlx::test]
async fn check_sends_min_seq_when_given(pool: PgPool) {
    let api = Api::new(pool.clone());
    api.team("acme", serde_json::Value::Null).await;
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
    let seq: i64 = rejected.headers["reviewlock-seq"].to_str().unwrap().parse().unwrap();
    let read = api.token("acme", "read").await;
    let server = listen(api.app.clone()).await;
    // `reviewlock check --team acme --agent AGENT [args] src/auth/login.rs`, with `min_seq` in the
    // environment when given: its exit code, and the body of the one check it asked.
    let check = async |agent: &str, args: &[&str], min_seq: Option<i64>| {
        let args: Vec<String> =
            [&["check", "--team", "acme", "--agent", agent][..], args, &["src/auth/login.rs"]]
                .concat()
                .iter()
                .map(|a| a.to_string())
                .collect();
        let mut env = vec![("REVIEWLOCK_URL", server.url.clone()), ("REVIEWLOCK_TOKEN", read.clone())];
        env.extend(min_seq.map(|seq| ("REVIEWLOCK_MIN_SEQ", seq.to_string())));
        let out = tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            reviewlock(&args, &env)
        })
        .await
        .unwrap();
        let received = server.take();
        assert_eq!(received.len(), 1, "one check: {received:?}");
        assert_eq!(received[0].path, "/v1/teams/acme/checks");
        (out.status.code(), received[0].body.clone())
    };
    let at = |agent: &str| json!({ "agent": agent, "paths": ["src/auth/login.rs"], "min_seq": seq });

    assert_eq!(check("a", &["--min-seq", &seq.to_string()], None).await, (Some(1), at("a")));
    assert_eq!(check("b", &["--min-seq", &seq.to_string()], None).await, (Some(0), at("b")));
    assert_eq!(check("a", &[], Some(seq)).await, (Some(1), at("a")), "REVIEWLOCK_MIN_SEQ");
    let unasked = |agent: &str| json!({ "agent": agent, "paths": ["src/auth/login.rs"] });
    assert_eq!(check("a", &[], None).await, (Some(1), unasked("a")));
    assert_eq!(check("b", &[], None).await, (Some(0), unasked("b")));
}

/// The bootstrap admin token of a server started without a terminal (a service manager, a
/// container) goes to a file only its user can read, never into the log stream; it is listed
/// among the server-wide tokens, and revoking it (by API or by the CLI) takes effect.
#[sqlx::test]
async fn the_bootstrap_token_is_kept_out_of_the_log_and_can_be_revoked(pool: PgPool) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("admin-token");
    let url = database_url(&pool);
    let server = Serve::new(&url, "")
        .without_admin_token()
        .env("REVIEWLOCK_ADMIN_TOKEN_FILE", file.to_str().unwrap())
        .env("REVIEWLOCK_LOG_FORMAT", "json")
        .log(dir.path().join("log"))
        .start()
        .await;
    let secret = std::fs::read_to_string(&file).unwrap().trim().to_owned();
    assert!(secret.starts_with("rl_"), "{secret}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "readable by its user only");
    }
    let log = server.log_text();
    assert!(!log.contains(&secret), "the secret is not in the log");
    for line in log.lines() {
        serde_json::from_str::<serde_json::Value>(line)
            .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
    }
    assert!(log.contains("admin-token"), "the log says where the secret is: {log}");

    // The bootstrap token is a server-wide token like any other: listed, and replaceable.
    let client = server.client();
    let listed = client.get("/v1/tokens").bearer(&secret).must().await;
    assert_eq!(listed.status, 200);
    let items = listed.body["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(
        (items[0]["name"].as_str(), items[0]["scope"].as_str()),
        (Some("bootstrap-admin"), Some("admin"))
    );
    let bootstrap_id = items[0]["id"].as_str().unwrap().to_owned();
    let created = client
        .request(Method::POST, "/v1/tokens")
        .bearer(&secret)
        .json(json!({ "name": "ops" }))
        .must()
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let ops = created.body["token"].as_str().unwrap().to_owned();
    let revoked =
        client.request(Method::DELETE, &format!("/v1/tokens/{bootstrap_id}")).bearer(&ops).must().await;
    assert_eq!(revoked.status, 204, "{}", revoked.body);
    let refused = client.get("/v1/tokens").bearer(&secret).send().await.unwrap();
    assert!(refused.is_problem(401, "unauthenticated"), "a revoked bootstrap token is refused");
    // A team token does not manage server-wide tokens.
    client.request(Method::PUT, "/v1/teams/acme").bearer(&ops).json(json!({})).must().await;
    let team_admin = client
        .request(Method::POST, "/v1/teams/acme/tokens")
        .bearer(&ops)
        .json(json!({ "name": "a", "scope": "admin" }))
        .must()
        .await;
    let team_admin = team_admin.body["token"].as_str().unwrap().to_owned();
    assert!(client.get("/v1/tokens").bearer(&team_admin).send().await.unwrap().is_problem(403, "forbidden"));

    // The CLI lists and revokes them on the database, for recovery.
    let db = [("DATABASE_URL", url.as_str())];
    let out = reviewlock(&["token", "list"], &db);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && listed.contains(" ops ") && !listed.contains("bootstrap-admin"),
        "{listed}"
    );
    let ops_id = listed.split_whitespace().next().unwrap().to_owned();
    let out = reviewlock(&["token", "revoke", &ops_id], &db);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Revoked by another process: refused once the server's token cache (1 s) lets it go.
    let started = std::time::Instant::now();
    while client.get("/v1/tokens").bearer(&ops).send().await.unwrap().status == 200 {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the revocation never took effect");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(client.get("/v1/tokens").bearer(&ops).send().await.unwrap().is_problem(401, "unauthenticated"));
    let out = reviewlock(&["token", "revoke", &ops_id], &db);
    assert_eq!(out.status.code(), Some(1), "revoked already");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not_found"));
    // Recovery: a new server-wide token from the CLI.
    let out = reviewlock(&["token", "create", "--name", "recovery"], &db);
    let recovery = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert_eq!(client.get("/v1/tokens").bearer(&recovery).must().await.status, 200);
    let team_list = reviewlock(&["token", "list", "--team", "acme"], &db);
    assert!(String::from_utf8_lossy(&team_list.stdout).contains(" a "), "a team's tokens");
}

/// Settings that cannot be used say which setting, and what to check.
#[sqlx::test]
async fn bad_settings_name_the_setting(pool: PgPool) {
    let out = reviewlock(&["serve"], &[("REVIEWLOCK_LISTEN", "localhost")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("REVIEWLOCK_LISTEN") && stderr.contains("localhost"), "{stderr}");
    let out = reviewlock(&["migrate"], &[("DATABASE_URL", "mysql://u:pw@h/db")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("postgres://") && !stderr.contains("pw@"), "{stderr}");
    let port = process::free_port();
    let url = format!("postgres://postgres:hunter2@127.0.0.1:{port}/reviewlock");
    let out = reviewlock(&["migrate"], &[("DATABASE_URL", &url)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("127.0.0.1:{port}")) && stderr.contains("'reviewlock'"), "{stderr}");
    assert!(stderr.contains("is Postgres running") && !stderr.contains("hunter2"), "{stderr}");
    // A busy port is named; a host name is resolved.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = taken.local_addr().unwrap().to_string();
    let out = reviewlock(&["serve"], &[("DATABASE_URL", &database_url(&pool)), ("REVIEWLOCK_LISTEN", &busy)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("cannot listen on {busy}")), "{stderr}");
    let mut server = Serve::new(&database_url(&pool), ADMIN).host("localhost").start().await;
    assert!(server.alive(), "serving on localhost");
    // Pool settings are the server's: a command that takes none refuses them.
    let out = reviewlock(&["migrate", "--db-max-connections", "3"], &[]);
    assert_eq!(out.status.code(), Some(2));
    // A database created because of a typo is announced, with its name.
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let (server, _) = server_url().rsplit_once('/').map(|(s, d)| (s.to_owned(), d.to_owned())).unwrap();
    let url = format!("{server}/rl_typo_{stamp}");
    let out = reviewlock(&["migrate"], &[("DATABASE_URL", &url), ("REVIEWLOCK_LOG_FORMAT", "json")]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = url.rsplit_once('/').unwrap().1;
    assert!(stderr.lines().any(|l| l.contains("WARN") && l.contains(name)), "{stderr}");
    let admin = PgPool::connect(&server_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("drop database \"{name}\""))).execute(&admin).await.unwrap();
}
