//! Lockouts (R3, R8) and the user's early lift (R10).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The user's early lift of one lockout (R10).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LiftInput {
    #[schema(max_length = 10000, example = "The rejection was about a file this agent did not write.")]
    pub reason: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Lockout {
    #[schema(example = "auth")]
    pub artifact: String,
    #[schema(example = "runtime-eng")]
    pub agent: String,
    /// The rejected version the agent was credited on.
    #[schema(example = 1)]
    pub version: i32,
    #[schema(required = true, example = "Error handling is missing.")]
    pub reason: Option<String>,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

page!(
    /// The team's active lockouts, by artifact and agent (all of them: `next_cursor` is null).
    LockoutPage of Lockout
);
