//! HTTP-level tests: each drives the whole router in-process against its own database.

mod agents;
mod common;
mod concurrency;
mod errors;
mod examples;
mod operations;
mod rules;
mod spec;
mod teams;
mod tokens;
