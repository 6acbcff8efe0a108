//! May this agent write this artifact, or these files?

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{AgentId, ArtifactKey, Code};

/// May this agent write this artifact, or these files?
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    /// The agent about to write, by its id. Give this or `alias`, not both. Without either, an
    /// `agent` token asks for its own agent, and any other token for a writer reviewlock cannot
    /// name: refused wherever an active lockout covers the path (`unknown_writer`), allowed
    /// elsewhere (R16).
    #[schema(value_type = Option<String>, example = "runtime-eng")]
    pub agent: Option<AgentId>,
    /// The agent about to write, by its id or one of its `aliases` (R16): a runtime's subagent
    /// name, a commit author's e-mail address. A name that names no agent of the team is a
    /// writer reviewlock cannot name (see `agent`), never the token's agent.
    #[schema(max_length = 200, example = "general-purpose")]
    pub alias: Option<String>,
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
    /// Answer from the team's state at or past this event seq: the `Reviewlock-Seq` a write
    /// answered (a rejection through another replica, say). A replica whose in-memory index has
    /// not yet applied it waits briefly for it, then asks the database; without it, a check may
    /// miss a write committed on another replica within the last notification delay (see
    /// docs/index.md).
    #[schema(minimum = 0, example = 42)]
    pub min_seq: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Denial {
    /// The artifact refused, or null when the agent itself may not write.
    #[schema(required = true, example = "auth")]
    pub artifact: Option<String>,
    /// Why: for a path, `agent_locked_out`, `not_an_author` or, for a writer reviewlock cannot
    /// name, `unknown_writer`; for the agent, `invalid_agent`; for an artifact, the code
    /// `POST …/versions` would answer (`unknown_writer` for a writer it cannot name).
    pub code: Code,
    #[schema(example = "runtime-eng is locked out of 'auth' (rejected version 1)")]
    pub detail: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CheckResult {
    /// True when there is no denial.
    pub allowed: bool,
    /// The agent the check was answered for; null for a writer reviewlock cannot name (R16).
    #[schema(required = true, example = "runtime-eng")]
    pub agent: Option<String>,
    pub denials: Vec<Denial>,
    /// The team's event seq the answer reflects: the state after that event, at or past the
    /// request's `min_seq`.
    #[serde(default)]
    #[schema(required = true, example = 42)]
    pub seq: i64,
}
