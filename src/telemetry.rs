//! Logs: `tracing` to stderr, JSON lines or pretty, filtered by `RUST_LOG`.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let json = match std::env::var("REVIEWLOCK_LOG_FORMAT").as_deref() {
        Ok("json") => true,
        Ok("pretty") => false,
        _ => !std::io::stderr().is_terminal(),
    };
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    if json {
        builder.json().flatten_event(true).with_current_span(true).init();
    } else {
        builder.init();
    }
}
