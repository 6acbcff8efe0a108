//! May this agent write this artifact, or these files?

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{AgentId, ArtifactKey, Code};

/// May this agent write this artifact, or these files?
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    /// The agent about to write. An `agent` token may leave it out: it asks for its own agent.
    #[schema(value_type = Option<String>, example = "runtime-eng")]
    pub agent: Option<AgentId>,
    /// An artifact key: would a version authored by the agent be accepted now?
    #[schema(value_type = Option<String>, example = "auth")]
    pub artifact: Option<ArtifactKey>,
    /// File paths, repository-relative with `/` separators, matched against the `paths` globs of
    /// the artifacts the agent may not write: those it is locked out of (`agent_locked_out`) or,
    /// for an agent that may not author, every artifact (`not_an_author`). A file no artifact
    /// covers is allowed. Normalised first (R15): `./src//web/x/../a.rs` is `src/web/a.rs`. A
    /// path that cannot be placed in the repository (absolute, a `..` leaving it, a backslash, a
    /// control character) is refused with 422 `invalid_field` naming it (`paths[1]`): send it
    /// relative to the repository root. At most 256 paths of at most 1000 bytes each.
    #[schema(max_items = 256, example = json!(["src/auth/login.rs"]))]
    pub paths: Option<Vec<String>>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Denial {
    /// The artifact refused, or null when the agent itself may not write.
    #[schema(required = true, example = "auth")]
    pub artifact: Option<String>,
    /// Why: for a path, `agent_locked_out` or `not_an_author`; for the agent, `invalid_agent`;
    /// for an artifact, the code `POST …/versions` would answer.
    pub code: Code,
    #[schema(example = "runtime-eng is locked out of 'auth' (rejected version 1)")]
    pub detail: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CheckResult {
    /// True when there is no denial.
    pub allowed: bool,
    pub denials: Vec<Denial>,
}
