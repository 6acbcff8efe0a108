//! The generated clients against a real server: README Examples 1 and 3 (PROTOCOL §6) through
//! the Python client (clients/python/tests/examples.py) and the TypeScript one
//! (clients/typescript/test/examples.ts, compiled with `tsc --strict` here), each with a refusal
//! read as a typed problem, an idempotent retry, a 304 and the event stream followed with a
//! timeout. They need the toolchains `clients/setup` installs: without them these tests say so
//! and pass, except under CI (`CI` set), where `.ci/run` has installed them and they must run.

mod process;

use std::path::{Path, PathBuf};
use std::process::Command;

use sqlx::PgPool;

const ADMIN: &str = "rl_clients_test_admin_token";

fn clients() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("clients")
}

/// Whether `tool` is installed; if not, whether to skip (outside CI) or fail.
fn installed(tool: &Path) -> bool {
    if tool.exists() {
        return true;
    }
    let missing = format!("{} is missing: run clients/setup", tool.display());
    assert!(std::env::var_os("CI").is_none(), "{missing}");
    eprintln!("skipped: {missing}");
    false
}

fn run(command: &mut Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what} failed ({}):\n{stdout}\n{stderr}", output.status);
}

#[sqlx::test]
async fn the_python_client_runs_the_examples(pool: PgPool) {
    let python = clients().join(".venv/bin/python");
    if !installed(&python) {
        return;
    }
    let server = process::serve(&process::database_url(&pool), ADMIN).await;
    run(
        Command::new(&python)
            .arg(clients().join("python/tests/examples.py"))
            // The committed client, not the copy `clients/setup` installed.
            .env("PYTHONPATH", clients().join("python"))
            .env("REVIEWLOCK_URL", &server.url)
            .env("REVIEWLOCK_ADMIN_TOKEN", ADMIN),
        "the Python examples",
    );
}

#[sqlx::test]
async fn the_typescript_client_runs_the_examples(pool: PgPool) {
    let tsc = clients().join("node_modules/.bin/tsc");
    if !installed(&tsc) {
        return;
    }
    let typescript = clients().join("typescript");
    run(Command::new(&tsc).arg("-p").arg(&typescript), "tsc --strict on the TypeScript client");
    let server = process::serve(&process::database_url(&pool), ADMIN).await;
    run(
        Command::new("node")
            .args(["--test", "dist/test/"])
            .current_dir(&typescript)
            .env("REVIEWLOCK_URL", &server.url)
            .env("REVIEWLOCK_ADMIN_TOKEN", ADMIN),
        "the TypeScript examples",
    );
}
