//! The Dockerfile and docker-compose.yml use the settings and ports the binary reads: they
//! cannot be run here, so their contract with the code is checked as text.

use std::collections::BTreeSet;

use clap::CommandFactory;
use reviewlock::config::Cli;

fn read(file: &str) -> String {
    std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every environment variable the binary reads, from its command-line definition.
fn binary_env() -> BTreeSet<String> {
    let cli = Cli::command();
    let mut names: BTreeSet<String> = cli
        .get_subcommands()
        .flat_map(|c| c.get_arguments().chain(c.get_subcommands().flat_map(|s| s.get_arguments())))
        .filter_map(|a| a.get_env().map(|e| e.to_string_lossy().into_owned()))
        .collect();
    // Read by the logger rather than by a flag.
    names.extend(["RUST_LOG".to_owned(), "REVIEWLOCK_LOG_FORMAT".to_owned()]);
    names
}

/// Names that look like ours (`REVIEWLOCK_*`, `DATABASE_URL`, `RUST_LOG`) in a file.
fn env_names(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("REVIEWLOCK_") || *w == "DATABASE_URL" || *w == "RUST_LOG")
        .map(str::to_owned)
        .collect()
}

#[test]
fn container_files_use_only_settings_the_binary_reads() {
    let known = binary_env();
    assert!(
        known.contains("REVIEWLOCK_LISTEN")
            && known.contains("DATABASE_URL")
            && known.contains("REVIEWLOCK_ADMIN_TOKEN")
    );
    // Compose's own interpolation variables are not the binary's.
    let compose_only: BTreeSet<&str> = ["REVIEWLOCK_PORT", "REVIEWLOCK_REPLICAS"].into();
    for file in ["Dockerfile", "docker-compose.yml", "reviewlock.env.example"] {
        for name in env_names(&read(file)) {
            assert!(
                known.contains(&name) || compose_only.contains(name.as_str()),
                "{file} sets {name}, which reviewlock does not read (it reads {known:?})"
            );
        }
    }
}

#[test]
fn container_ports_and_health_match_the_service() {
    let dockerfile = read("Dockerfile");
    let compose = read("docker-compose.yml");
    assert!(dockerfile.contains("EXPOSE 8080"));
    assert!(dockerfile.contains("REVIEWLOCK_LISTEN=0.0.0.0:8080"), "the image listens on all interfaces");
    assert!(dockerfile.contains("GET /healthz"), "the healthcheck asks /healthz");
    assert!(compose.contains("REVIEWLOCK_LISTEN: 0.0.0.0:8080"));
    assert!(compose.contains("replicas: ${REVIEWLOCK_REPLICAS:-2}"), "two replicas behind one database");
    // One URL for every replica: only the load balancer publishes a port, and it forwards to the
    // port the service listens on.
    assert_eq!(compose.matches("ports:").count(), 1, "one published port");
    assert!(compose.contains("\"${REVIEWLOCK_PORT:-8080}:8080\""));
    assert!(compose.contains("server reviewlock:8080 resolve;"), "the balancer forwards to every replica");
    // No password is written in the file: compose refuses to start without one.
    assert!(compose.contains("POSTGRES_PASSWORD:?") && !compose.contains("POSTGRES_PASSWORD:-"));
    assert!(compose.contains("condition: service_healthy") && compose.contains("pg_isready"));
    assert!(compose.contains("path: reviewlock.env"), "the admin token comes from an env file");
    let spec = reviewlock::openapi();
    assert!(spec.paths.paths.contains_key("/healthz") && spec.paths.paths.contains_key("/readyz"));
    // The image runs as a non-root user and serves by default.
    assert!(dockerfile.contains("USER 10001"));
    assert!(dockerfile.contains("ENTRYPOINT [\"reviewlock\"]") && dockerfile.contains("CMD [\"serve\"]"));
}
