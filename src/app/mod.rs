//! The use cases: one file per write (each one transaction, through [`unit::run`]: claim the
//! idempotency key, lock and load, let `domain` decide, write the effects and the event,
//! commit), the reads (each one snapshot), the checks and the event log. Rules are decided in
//! `domain`, never here; HTTP is `http`'s.

pub mod actor;
pub mod agents;
pub mod artifact;
pub mod assignment;
pub mod authenticate;
pub mod bootstrap;
pub mod check;
pub mod create;
pub mod deliver;
pub mod events;
pub mod forges;
pub mod globs;
pub mod index;
pub mod lift;
pub mod reads;
pub mod ref_check;
pub mod resolution;
pub mod review;
pub mod submit_version;
pub mod targets;
pub mod teams;
pub mod tokens;
pub mod unit;
pub mod upkeep;
pub mod views;
pub mod webhooks;
