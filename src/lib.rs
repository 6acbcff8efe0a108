//! reviewlock: the reviewer rejection lockout protocol, as an HTTP/JSON service.
//!
//! `domain` decides every rule; `app` runs each use case (a write as one transaction, a read as
//! one snapshot); `store` is the SQL; `http` is axum and the OpenAPI spec; `mcp` offers the
//! REST API as tools. Imports point down those layers only (held by `tests/layers.rs`); this
//! file only wires them.

pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod domain;
pub mod error;
pub mod guard;
pub mod hook;
pub mod http;
pub mod mcp;
pub mod metrics;
pub mod outbound;
pub mod rate_limit;
pub mod resources;
pub mod seal;
pub mod server;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod validate;

pub use http::openapi;
pub use http::state::AppState;
pub use server::{app, serve};
pub use startup::connect;
pub use store::MIGRATOR;

/// The spec as served at `/openapi.json`, pretty-printed.
pub fn openapi_json() -> String {
    openapi().to_pretty_json().expect("the spec serializes")
}
