//! The protocol's request and response bodies as clients see them (PROTOCOL §5), shared by
//! `app`, which builds them (`app::views`), and `http`, which documents and serves them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::domain::{
    Contributor, Evidence, Grounds, PendingRemedy, Policy, Remedy, RemedyAction, ReviewKind, State, Verdict,
};

/// Create an artifact with its version 1, in review.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactInput {
    /// Team-unique: lowercase letters, digits, `-`, `_`, `.`, `/` (e.g. `src/auth.rs`, `pr-42`).
    #[schema(max_length = 200, example = "auth")]
    pub key: String,
    #[schema(max_length = 200)]
    pub title: String,
    /// Free label such as `module`, `config`, `pr`.
    #[schema(max_length = 64)]
    pub kind: Option<String>,
    /// Glob patterns of the files the artifact covers, matched by the checks: repository-relative
    /// with `/` separators; `*` stops at `/`, `**` crosses it. Stored normalised (R15): `./`,
    /// repeated `/` and `..` inside the tree are removed (`./src//x/../web/**` is `src/web/**`).
    /// Refused with 422 `invalid_field` naming the glob (`paths[3]`): an absolute glob, a `..`
    /// leaving the repository or following a wildcard, a backslash (write `[*]` for a literal
    /// `*`), a control character, an invalid glob. At most 64 globs of at most 200 bytes each,
    /// 4096 bytes in all.
    #[schema(max_items = 64)]
    pub paths: Option<Vec<String>>,
    pub author: String,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    /// Commit SHA, URL or content hash of version 1.
    #[serde(rename = "ref")]
    #[schema(max_length = 500)]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000)]
    pub summary: Option<String>,
}

/// A new version of an artifact.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionInput {
    pub author: String,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    #[serde(rename = "ref")]
    #[schema(max_length = 500)]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000)]
    pub summary: Option<String>,
}

/// A verdict on one version (R1–R4).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewInput {
    pub reviewer: String,
    pub verdict: Verdict,
    /// When given, must equal the version's `ref` (R2).
    #[serde(rename = "ref")]
    #[schema(max_length = 500)]
    pub git_ref: Option<String>,
    pub grounds: Option<Grounds>,
    /// Required for a rejection.
    #[schema(max_length = 10000)]
    pub reason: Option<String>,
    /// Required for a rejection.
    pub remedy: Option<Remedy>,
    /// Required for a rejection under the waza profile.
    pub evidence: Option<Evidence>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentInput {
    pub agent: String,
    #[schema(max_length = 10000)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ResolutionAction {
    Assign,
    Abandon,
}

impl ResolutionAction {
    pub const ALL: [ResolutionAction; 2] = [ResolutionAction::Assign, ResolutionAction::Abandon];

    /// As JSON spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ResolutionAction::Assign => "assign",
            ResolutionAction::Abandon => "abandon",
        }
    }
}

/// The user's resolution of a deadlock (R9).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolutionInput {
    pub action: ResolutionAction,
    /// For `assign`: an agent who is not locked out.
    pub agent: Option<String>,
    #[schema(max_length = 10000)]
    pub reason: String,
}

/// The user's early lift of one lockout (R10).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LiftInput {
    #[schema(max_length = 10000)]
    pub reason: String,
}

/// May this agent write this artifact, or these files?
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    pub agent: String,
    /// An artifact key: would a version authored by the agent be accepted now?
    pub artifact: Option<String>,
    /// File paths, repository-relative with `/` separators, matched against the `paths` globs of
    /// the artifacts the agent may not write: those it is locked out of (`agent_locked_out`) or,
    /// for an agent that may not author, every artifact (`not_an_author`). A file no artifact
    /// covers is allowed. Normalised first (R15): `./src//web/x/../a.rs` is `src/web/a.rs`. A
    /// path that cannot be placed in the repository (absolute, a `..` leaving it, a backslash, a
    /// control character) is refused with 422 `invalid_field` naming it (`paths[1]`): send it
    /// relative to the repository root. At most 256 paths of at most 1000 bytes each.
    #[schema(max_items = 256)]
    pub paths: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Denial {
    /// The artifact refused, or null when the agent itself may not write.
    pub artifact: Option<String>,
    /// Why: for a path, `agent_locked_out` or `not_an_author`; for the agent, `invalid_agent`;
    /// for an artifact, the code `POST …/versions` would answer.
    #[schema(example = "agent_locked_out")]
    pub code: String,
    pub detail: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResult {
    pub allowed: bool,
    pub denials: Vec<Denial>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Review {
    pub id: i64,
    pub version: i32,
    pub reviewer: String,
    pub verdict: Verdict,
    /// `focused_rereview` for a reviewer who rejected an earlier version of this cycle.
    pub kind: ReviewKind,
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    pub grounds: Option<Grounds>,
    pub reason: Option<String>,
    pub remedy: Option<Remedy>,
    pub evidence: Option<Evidence>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Version {
    pub number: i32,
    /// The revision cycle the version belongs to.
    pub cycle: i32,
    pub author: String,
    pub contributors: Vec<Contributor>,
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    pub summary: Option<String>,
    pub submitted_at: DateTime<Utc>,
    pub reviews: Vec<Review>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Lockout {
    pub artifact: String,
    pub agent: String,
    /// The rejected version the agent was credited on.
    pub version: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Assignment {
    pub agent: String,
    pub note: Option<String>,
    /// `coordinator`, or `user` for a deadlock resolution.
    pub assigned_by: String,
    pub assigned_at: DateTime<Utc>,
}

/// A deadlocked artifact escalated to the user (R9).
#[derive(Debug, Serialize, ToSchema)]
pub struct Escalation {
    pub id: i64,
    pub artifact: String,
    pub opened_at: DateTime<Utc>,
    /// The artifact's versions, authors, rejections and lockouts when it deadlocked.
    #[schema(value_type = Object)]
    pub details: Value,
}

/// An artifact's status (PROTOCOL §5).
#[derive(Debug, Serialize, ToSchema)]
pub struct ArtifactStatus {
    pub key: String,
    pub title: String,
    pub kind: Option<String>,
    pub paths: Vec<String>,
    pub state: State,
    /// The revision cycle: it starts at 1 and a version after approval starts the next.
    pub cycle: i32,
    /// Increases on every change of the artifact.
    pub revision: i64,
    pub current_version: Version,
    pub original_author: String,
    /// The active lockouts.
    pub lockouts: Vec<Lockout>,
    pub assignment: Option<Assignment>,
    #[schema(value_type = Option<PendingRemedySchema>)]
    pub pending_remedy: Option<PendingRemedy>,
    /// Agents who may be assigned the next revision now.
    pub eligible_agents: Vec<String>,
    pub escalation: Option<Escalation>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An artifact in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArtifactSummary {
    pub key: String,
    pub title: String,
    pub kind: Option<String>,
    pub state: State,
    pub cycle: i32,
    pub revision: i64,
    pub current_version: i32,
    pub original_author: String,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewOutcome {
    pub review: Review,
    pub artifact: ArtifactStatus,
}

/// A page of a list: pass `next_cursor` as `cursor` for the next one; null on the last.
#[derive(Debug, Serialize, ToSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenRef {
    pub id: Option<uuid::Uuid>,
    pub name: Option<String>,
}

/// One state change (R12).
#[derive(Debug, Serialize, ToSchema)]
pub struct Event {
    /// Team-wide, increasing, never reused.
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub artifact: Option<String>,
    #[serde(rename = "type")]
    #[schema(example = "review.rejected")]
    pub kind: String,
    /// The agent the change names, if any.
    pub actor: Option<String>,
    /// The token that made the change.
    pub token: TokenRef,
    /// As stored: passed through without being parsed again.
    #[schema(value_type = Object)]
    pub data: Box<serde_json::value::RawValue>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    pub items: Vec<Event>,
    /// Pass as `after` for the next poll: the last seq of this page, or `after` when empty.
    pub next_after: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    pub id: String,
    pub display_name: Option<String>,
    pub policy: Policy,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    Ai,
    Human,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Agent {
    pub id: String,
    pub display_name: Option<String>,
    pub kind: AgentKind,
    pub roles: Vec<String>,
    pub can_review: bool,
    pub can_author: bool,
    pub expertise: Vec<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An active lockout of the agent.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentLockout {
    pub artifact: String,
    /// The rejected version the agent was credited on.
    pub version: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

/// An agent with its active lockouts.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentDetail {
    #[serde(flatten)]
    pub agent: Agent,
    pub lockouts: Vec<AgentLockout>,
}

/// A token as listed: never its secret.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Token {
    pub id: uuid::Uuid,
    pub name: String,
    pub scope: String,
    /// The agent an `agent` token acts as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A new token with its secret, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub info: Token,
    /// The bearer secret. It is stored only as a hash and cannot be shown again: a replay of
    /// the request (same `Idempotency-Key`) answers null here.
    #[schema(example = "rl_5f0c…")]
    pub token: Option<String>,
}

// How `domain::PendingRemedy` (a remedy flattened beside who asked for it) is sent, described for
// the spec: a remedy closed to unknown fields cannot be the part of an `allOf`.
/// The remedy of the rejection that opened the current revision, with who asked for it.
#[derive(ToSchema)]
#[schema(as = PendingRemedy)]
#[allow(dead_code)]
pub struct PendingRemedySchema {
    action: RemedyAction,
    agent: Option<String>,
    expertise: Vec<String>,
    reviewer: String,
    reason: String,
}
