//! HTTP-level tests: each drives the whole router in-process against its own database.

mod agents;
mod common;
mod errors;
mod examples;
mod operations;
mod spec;
mod teams;
mod tokens;
