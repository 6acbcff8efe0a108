//! An artifact: its creation, its status and its place in a list.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::assignment::Assignment;
use super::escalations::Escalation;
use super::lockouts::Lockout;
use super::versions::{Review, Version};
use crate::domain::{AgentId, ArtifactKey, Contributor, PendingRemedy, State};

/// Create an artifact with its version 1, in review.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactInput {
    /// Team-unique: lowercase letters, digits, `-`, `_`, `.`, `/` (e.g. `src/auth.rs`, `pr-42`).
    #[schema(value_type = String, max_length = 200, example = "auth")]
    pub key: ArtifactKey,
    #[schema(max_length = 200, example = "Authentication module")]
    pub title: String,
    /// Free label such as `module`, `config`, `pr`.
    #[schema(max_length = 64, example = "module")]
    pub kind: Option<String>,
    /// Glob patterns of the files the artifact covers, matched by the checks: repository-relative
    /// with `/` separators; `*` stops at `/`, `**` crosses it. Stored normalised (R15): `./`,
    /// repeated `/` and `..` inside the tree are removed (`./src//x/../web/**` is `src/web/**`).
    /// Refused with 422 `invalid_field` naming the glob (`paths[3]`): an absolute glob, a `..`
    /// leaving the repository or following a wildcard, a backslash (write `[*]` for a literal
    /// `*`), a control character, an invalid glob. At most 64 globs of at most 200 bytes each,
    /// 4096 bytes in all.
    #[schema(max_items = 64, example = json!(["src/auth/**"]))]
    pub paths: Option<Vec<String>>,
    /// The agent writing version 1.
    #[schema(value_type = String, example = "runtime-eng")]
    pub author: AgentId,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    /// Commit SHA, URL or content hash of version 1.
    #[serde(rename = "ref")]
    #[schema(max_length = 500, example = "3f2a9c1")]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000, example = "Login, sessions and token refresh.")]
    pub summary: Option<String>,
}

/// An artifact's status (PROTOCOL §5).
#[derive(Debug, Serialize, ToSchema)]
pub struct ArtifactStatus {
    #[schema(example = "auth")]
    pub key: String,
    #[schema(example = "Authentication module")]
    pub title: String,
    #[schema(required = true, example = "module")]
    pub kind: Option<String>,
    #[schema(example = json!(["src/auth/**"]))]
    pub paths: Vec<String>,
    pub state: State,
    /// The revision cycle: it starts at 1 and a version after approval starts the next.
    #[schema(example = 1)]
    pub cycle: i32,
    /// Increases on every change of the artifact.
    #[schema(example = 3)]
    pub revision: i64,
    pub current_version: Version,
    #[schema(example = "runtime-eng")]
    pub original_author: String,
    /// The active lockouts.
    pub lockouts: Vec<Lockout>,
    #[schema(required = true)]
    pub assignment: Option<Assignment>,
    #[schema(required = true)]
    pub pending_remedy: Option<PendingRemedy>,
    /// Agents who may be assigned the next revision now.
    #[schema(example = json!(["quality-eng", "revision-eng"]))]
    pub eligible_agents: Vec<String>,
    #[schema(required = true)]
    pub escalation: Option<Escalation>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An artifact in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArtifactSummary {
    #[schema(example = "auth")]
    pub key: String,
    #[schema(example = "Authentication module")]
    pub title: String,
    #[schema(required = true, example = "module")]
    pub kind: Option<String>,
    pub state: State,
    #[schema(example = 1)]
    pub cycle: i32,
    #[schema(example = 3)]
    pub revision: i64,
    /// The current version's number.
    #[schema(example = 2)]
    pub current_version: i32,
    #[schema(example = "runtime-eng")]
    pub original_author: String,
    pub updated_at: DateTime<Utc>,
}

page!(
    /// A page of the team's artifacts, in key order.
    ArtifactPage of ArtifactSummary
);

// A verdict and the artifact's status it leaves.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewOutcome {
    pub review: Review,
    pub artifact: ArtifactStatus,
}
