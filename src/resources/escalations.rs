//! Deadlocked artifacts escalated to the user, and the user's resolution (R9).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::lockouts::Lockout;
use super::versions::Version;
use crate::domain::{AgentId, Remedy, ResolutionAction};

/// The user's resolution of a deadlock (R9).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolutionInput {
    pub action: ResolutionAction,
    /// For `assign`: an agent who is not locked out.
    #[schema(value_type = Option<String>, example = "new-eng")]
    pub agent: Option<AgentId>,
    #[schema(max_length = 10000, example = "A fresh engineer joined the team for this.")]
    pub reason: String,
}

/// A deadlocked artifact escalated to the user (R9).
#[derive(Debug, Serialize, ToSchema)]
pub struct Escalation {
    #[schema(example = 1)]
    pub id: i64,
    #[schema(example = "billing")]
    pub artifact: String,
    pub opened_at: DateTime<Utc>,
    /// The artifact's versions, authors, rejections and lockouts when it deadlocked.
    #[schema(value_type = EscalationDetails)]
    pub details: Value,
}

/// What the user needs to decide a deadlock (R9): the cycle's versions, who wrote them, each
/// rejection and the lockouts, as they were when the artifact deadlocked.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EscalationDetails {
    /// The versions of the cycle that deadlocked, oldest first, with their reviews.
    pub versions: Vec<Version>,
    /// The author of each of those versions, in order.
    #[schema(example = json!(["runtime-eng", "revision-eng", "quality-eng"]))]
    pub authors: Vec<String>,
    pub rejections: Vec<Rejection>,
    /// The lockouts active when the artifact deadlocked.
    pub lockouts: Vec<Lockout>,
}

/// A rejection of a version, as an escalation lists it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    #[schema(example = 3)]
    pub version: i32,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    #[schema(required = true, example = "Still wrong.")]
    pub reason: Option<String>,
    #[schema(required = true)]
    pub remedy: Option<Remedy>,
}

page!(
    /// A page of the team's open escalations, oldest first.
    EscalationPage of Escalation
);
