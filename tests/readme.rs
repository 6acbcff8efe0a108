//! The README's curl walk-throughs, run against a real server: every `sh` block of its
//! "first session" section is executed in order, and each `# => ` line must be exactly the next
//! line the commands print. A README that stops matching the service fails here.

mod process;

use std::process::Command;

use process::{database_url, serve};
use sqlx::PgPool;

const README: &str = include_str!("../README.md");

/// The walk-through: the `sh` blocks from "A first session with curl" to "The API".
fn walkthrough() -> (String, Vec<String>) {
    let start = README.find("## A first session with curl").expect("the README has a first session");
    let end = README[start..].find("\n## The API").map_or(README.len(), |i| start + i);
    let mut script = String::new();
    let mut expected = Vec::new();
    for block in README[start..end].split("```sh\n").skip(1) {
        let code = block.split("\n```").next().unwrap();
        for line in code.lines() {
            if let Some(output) = line.strip_prefix("# => ") {
                expected.push(output.to_owned());
            } else if !(line.starts_with("ADMIN=") || line.starts_with("API=")) {
                // The token and the address are the test server's.
                script.push_str(line);
                script.push('\n');
            }
        }
    }
    (script, expected)
}

#[sqlx::test]
async fn the_readme_walkthroughs_run_as_written(pool: PgPool) {
    let (script, expected) = walkthrough();
    assert!(expected.len() >= 20, "the walk-through states what each command prints");
    let admin = "readme-admin-token";
    let server = serve(&database_url(&pool), admin).await;
    let run = || {
        Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .env("ADMIN", admin)
            .env("API", format!("{}/v1/teams/acme", server.url))
            .output()
            .expect("bash, curl and jq run the README")
    };
    let output = run();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the walk-through failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed: Vec<&str> = stdout.lines().collect();
    for (i, (want, got)) in expected.iter().zip(&printed).enumerate() {
        assert_eq!(got, want, "line {i} of the walk-through's output");
    }
    assert_eq!(printed.len(), expected.len(), "every printed line is stated in the README:\n{stdout}");

    // A second run on the same team fails loudly at its first refused request, rather than
    // printing `null` and going on.
    let again = run();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success(), "a second run fails");
    assert!(stderr.contains("curl: (22)") && stderr.contains("409"), "and says why: {stderr}");
}
