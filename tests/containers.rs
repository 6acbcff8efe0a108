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
    // One URL for every replica: of the services a plain `up` starts, only the load balancer
    // publishes a port, and it forwards to the port the service listens on.
    let services: serde_norway::Value = serde_norway::from_str(&compose).unwrap();
    let services = services["services"].as_mapping().expect("services");
    let published: Vec<_> = services
        .iter()
        .filter(|(_, s)| s.get("profiles").is_none() && s.get("ports").is_some())
        .map(|(name, _)| name.as_str().unwrap())
        .collect();
    assert_eq!(published, ["balancer"], "one published port");
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

/// `--profile observability` adds Prometheus and Grafana, configured from deploy/, reachable from
/// this host only, with no password in the file; a plain `up` starts neither.
#[test]
fn observability_is_an_opt_in_profile() {
    let compose: serde_norway::Value = serde_norway::from_str(&read("docker-compose.yml")).unwrap();
    for (service, mounted) in [
        ("prometheus", ["deploy/prometheus/prometheus.yml", "deploy/prometheus/alerts.yml"].as_slice()),
        ("grafana", ["deploy/grafana/provisioning", "deploy/grafana/dashboards"].as_slice()),
    ] {
        let s = &compose["services"][service];
        assert_eq!(s["profiles"], serde_norway::from_str::<serde_norway::Value>("[observability]").unwrap());
        let volumes: Vec<&str> =
            s["volumes"].as_sequence().unwrap().iter().filter_map(|v| v.as_str()).collect();
        for file in mounted {
            assert!(volumes.iter().any(|v| v.starts_with(&format!("./{file}:"))), "{service} mounts {file}");
            assert!(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file).exists(), "{file} exists");
        }
        let ports = s["ports"].as_sequence().unwrap();
        assert!(ports.iter().all(|p| p.as_str().unwrap().starts_with("127.0.0.1:")), "{service}: {ports:?}");
    }
    let grafana = &compose["services"]["grafana"]["environment"];
    assert_eq!(grafana["GF_AUTH_ANONYMOUS_ORG_ROLE"].as_str(), Some("Viewer"), "anonymous users only view");
    assert_eq!(grafana["GF_AUTH_DISABLE_LOGIN_FORM"].as_str(), Some("true"));
    assert_eq!(
        grafana["GF_AUTH_BASIC_ENABLED"].as_str(),
        Some("false"),
        "the default admin password opens nothing"
    );
    assert!(grafana.get("GF_SECURITY_ADMIN_PASSWORD").is_none());
    // Prometheus scrapes the replicas by the compose service's name, on the port they listen on.
    let prometheus: serde_norway::Value =
        serde_norway::from_str(&read("deploy/prometheus/prometheus.yml")).unwrap();
    let sd = &prometheus["scrape_configs"][0]["dns_sd_configs"][0];
    assert!(compose["services"].get(sd["names"][0].as_str().unwrap()).is_some());
    assert_eq!(sd["port"].as_u64(), Some(8080));
}
