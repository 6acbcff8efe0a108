//! The Squad integration (`integrations/squad/`, a TypeScript package) against a real server:
//! its `node --test` suite runs with REVIEWLOCK_URL and REVIEWLOCK_ADMIN_TOKEN naming a server
//! started here on a fresh database. It needs the package's dev dependencies (`npm ci` in
//! `integrations/squad`): without them this test says so and passes, except under CI (`CI`
//! set), where `.ci/run` has installed them and it must run.

mod process;

use std::path::Path;
use std::process::Command;

use process::{database_url, serve};
use sqlx::PgPool;

const ADMIN: &str = "rl_squad_test_admin_token";

#[sqlx::test]
async fn the_squad_hook_passes_its_tests_against_a_server(pool: PgPool) {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/squad");
    if !package.join("node_modules/.bin/tsc").exists() {
        let missing = "integrations/squad/node_modules is missing: run `npm ci` in integrations/squad";
        assert!(std::env::var_os("CI").is_none(), "{missing}");
        eprintln!("skipped: {missing}");
        return;
    }
    let server = serve(&database_url(&pool), ADMIN).await;
    let output = Command::new("npm")
        .args(["test", "--silent"])
        .current_dir(&package)
        .env("REVIEWLOCK_URL", &server.url)
        .env("REVIEWLOCK_ADMIN_TOKEN", ADMIN)
        .output()
        .expect("npm runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the Squad package's tests failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("# fail 0"), "{stdout}");
}
