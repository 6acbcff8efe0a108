//! sqlx: rows, queries and the event log. Functions take a connection, so the caller decides
//! the transaction; nothing here decides a rule.

pub mod agents;
pub mod artifacts;
pub mod events;
pub mod idempotency;
pub mod teams;
pub mod tokens;
