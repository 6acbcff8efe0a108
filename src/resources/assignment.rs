//! The revision's assignment (R5).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{AgentId, AssignedBy};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentInput {
    /// The agent who will write the next version: not locked out (R5).
    #[schema(value_type = String, example = "revision-eng")]
    pub agent: AgentId,
    #[schema(max_length = 10000, example = "Takes over after the quality rejection.")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Assignment {
    #[schema(example = "revision-eng")]
    pub agent: String,
    #[schema(required = true, example = "Takes over after the quality rejection.")]
    pub note: Option<String>,
    /// `coordinator`, or `user` for a deadlock resolution.
    pub assigned_by: AssignedBy,
    pub assigned_at: DateTime<Utc>,
}
