//! HTTP-level tests: each drives the whole router in-process against its own database.

mod admission;
mod agent_tokens;
mod agents;
mod bench_sql;
mod common;
mod concurrency;
mod conditional;
mod connections;
mod errors;
mod examples;
mod feed;
mod idempotency;
mod limits;
mod metrics;
mod operations;
mod paths;
mod replies;
mod rules;
mod security;
mod snapshot;
mod spec;
mod teams;
mod tenancy;
mod tokens;
mod typed_events;
mod writers;
