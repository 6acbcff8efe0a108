//! HTTP-level tests: each drives the whole router in-process against its own database.

mod common;
mod examples;
