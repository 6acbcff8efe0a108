//! The binary's commands besides `serve`, run as an operator or a hook would run them.

#[path = "api/common.rs"]
#[allow(dead_code)]
mod common;
mod process;

use std::process::{Command, Output};

use common::{ADMIN, Api};
use process::{database_url, dotenvy_url, serve};
use serde_json::json;
use sqlx::PgPool;

fn reviewlock(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reviewlock"));
    command.args(args).env_remove("REVIEWLOCK_TOKEN").env_remove("REVIEWLOCK_URL");
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
    let server = PgPool::connect(&dotenvy_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("drop database \"{name}\""))).execute(&server).await.unwrap();
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
    assert!(stderr.contains("auth") && stderr.contains("agent_locked_out"), "{stderr}");

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
}
