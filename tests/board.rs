//! The board (`/ui/`) in a real browser: `tests/board/board.test.mjs` drives Debian's headless
//! Chromium through WebDriver (`chromedriver`) against a server started here on a fresh
//! database: the inbox, a resolution from the page, a read token's view, live updates,
//! an invalid token, axe-core on every view, and the screenshots of docs/images/ (which the
//! README shows). It needs `npm ci` in `tests/board` and the `chromium` and `chromium-driver`
//! packages: without them this test says so and passes, except under CI (`CI` set), where
//! `.ci/run` has installed them and it must run.

mod process;

use std::path::Path;
use std::process::Command;

use process::{database_url, serve};
use sqlx::PgPool;

const ADMIN: &str = "rl_board_test_admin_token";

#[sqlx::test]
async fn the_board_works_in_a_real_browser(pool: PgPool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = root.join("tests/board");
    let missing = [
        (
            suite.join("node_modules/selenium-webdriver").exists(),
            "tests/board/node_modules: run `npm ci` in tests/board",
        ),
        (Path::new("/usr/bin/chromium").exists(), "/usr/bin/chromium: apt-get install chromium"),
        (
            Path::new("/usr/bin/chromedriver").exists(),
            "/usr/bin/chromedriver: apt-get install chromium-driver",
        ),
    ];
    if let Some((_, what)) = missing.iter().find(|(present, _)| !present) {
        assert!(std::env::var_os("CI").is_none(), "missing {what}");
        eprintln!("skipped: missing {what}");
        return;
    }
    let server = serve(&database_url(&pool), ADMIN).await;
    let output = Command::new("node")
        .args(["--test", "--test-concurrency=1", "board.test.mjs"])
        .current_dir(&suite)
        .env("REVIEWLOCK_URL", &server.url)
        .env("REVIEWLOCK_ADMIN_TOKEN", ADMIN)
        .env("BOARD_SCREENSHOTS", root.join("docs/images"))
        // Selenium finds nothing to download: the browser and its driver are Debian's.
        .env("SE_OFFLINE", "true")
        .output()
        .expect("node runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the board's browser tests failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("# fail 0") && !stdout.contains("# pass 0"), "{stdout}");
}
