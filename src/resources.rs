//! The protocol's request and response bodies as clients see them (PROTOCOL §5), shared by
//! `app`, which builds them (`app::views`), and `http`, which documents and serves them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::app::actor::Scope;
use crate::domain::{
    Code, Contributor, Evidence, Grounds, PendingRemedy, Policy, Remedy, RemedyAction, ReviewKind, State,
    Verdict,
};

pub mod events;

/// Create an artifact with its version 1, in review.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactInput {
    /// Team-unique: lowercase letters, digits, `-`, `_`, `.`, `/` (e.g. `src/auth.rs`, `pr-42`).
    #[schema(max_length = 200, example = "auth")]
    pub key: String,
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
    #[schema(example = "runtime-eng")]
    pub author: String,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    /// Commit SHA, URL or content hash of version 1.
    #[serde(rename = "ref")]
    #[schema(max_length = 500, example = "3f2a9c1")]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000, example = "Login, sessions and token refresh.")]
    pub summary: Option<String>,
}

/// A new version of an artifact.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionInput {
    /// The assignee after a rejection; the current author for a supersede.
    #[schema(example = "revision-eng")]
    pub author: String,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    #[serde(rename = "ref")]
    #[schema(max_length = 500, example = "8b41d07")]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000, example = "Adds error handling to every login path.")]
    pub summary: Option<String>,
}

/// A verdict on one version (R1–R4).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewInput {
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    pub verdict: Verdict,
    /// When given, must equal the version's `ref` (R2).
    #[serde(rename = "ref")]
    #[schema(max_length = 500, example = "3f2a9c1")]
    pub git_ref: Option<String>,
    pub grounds: Option<Grounds>,
    /// Required for a rejection.
    #[schema(max_length = 10000, example = "Error handling is missing.")]
    pub reason: Option<String>,
    /// Required for a rejection.
    pub remedy: Option<Remedy>,
    /// Required for a rejection under the waza profile.
    pub evidence: Option<Evidence>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentInput {
    /// The agent who will write the next version: not locked out (R5).
    #[schema(example = "revision-eng")]
    pub agent: String,
    #[schema(max_length = 10000, example = "Takes over after the quality rejection.")]
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
    #[schema(example = "new-eng")]
    pub agent: Option<String>,
    #[schema(max_length = 10000, example = "A fresh engineer joined the team for this.")]
    pub reason: String,
}

/// The user's early lift of one lockout (R10).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LiftInput {
    #[schema(max_length = 10000, example = "The rejection was about a file this agent did not write.")]
    pub reason: String,
}

/// May this agent write this artifact, or these files?
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInput {
    /// The agent about to write. An `agent` token may leave it out: it asks for its own agent.
    #[schema(example = "runtime-eng")]
    pub agent: Option<String>,
    /// An artifact key: would a version authored by the agent be accepted now?
    #[schema(example = "auth")]
    pub artifact: Option<String>,
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
    #[schema(value_type = Code)]
    pub code: String,
    #[schema(example = "runtime-eng is locked out of 'auth' (rejected version 1)")]
    pub detail: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CheckResult {
    /// True when there is no denial.
    pub allowed: bool,
    pub denials: Vec<Denial>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Review {
    #[schema(example = 7)]
    pub id: i64,
    #[schema(example = 1)]
    pub version: i32,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    pub verdict: Verdict,
    /// `focused_rereview` for a reviewer who rejected an earlier version of this cycle.
    pub kind: ReviewKind,
    #[serde(rename = "ref")]
    #[schema(required = true, example = "3f2a9c1")]
    pub git_ref: Option<String>,
    #[schema(required = true)]
    pub grounds: Option<Grounds>,
    #[schema(required = true, example = "Error handling is missing.")]
    pub reason: Option<String>,
    #[schema(required = true)]
    pub remedy: Option<Remedy>,
    #[schema(required = true)]
    pub evidence: Option<Evidence>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Version {
    #[schema(example = 2)]
    pub number: i32,
    /// The revision cycle the version belongs to.
    #[schema(example = 1)]
    pub cycle: i32,
    #[schema(example = "revision-eng")]
    pub author: String,
    pub contributors: Vec<Contributor>,
    #[serde(rename = "ref")]
    #[schema(required = true, example = "8b41d07")]
    pub git_ref: Option<String>,
    #[schema(required = true, example = "Adds error handling to every login path.")]
    pub summary: Option<String>,
    pub submitted_at: DateTime<Utc>,
    pub reviews: Vec<Review>,
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

#[derive(Debug, Serialize, ToSchema)]
pub struct Assignment {
    #[schema(example = "revision-eng")]
    pub agent: String,
    #[schema(required = true, example = "Takes over after the quality rejection.")]
    pub note: Option<String>,
    /// `coordinator`, or `user` for a deadlock resolution.
    #[schema(example = "coordinator")]
    pub assigned_by: String,
    pub assigned_at: DateTime<Utc>,
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
    #[schema(value_type = Option<PendingRemedySchema>, required = true)]
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

#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewOutcome {
    pub review: Review,
    pub artifact: ArtifactStatus,
}

/// Defines a page of a list, named after what it lists, so that every client has one type per
/// page (a generic page is inlined in the spec, once per use).
macro_rules! page {
    ($(#[$meta:meta])* $name:ident of $item:ty) => {
        $(#[$meta])*
        #[derive(Debug, Serialize, ToSchema)]
        pub struct $name {
            pub items: Vec<$item>,
            /// Pass as `cursor` for the next page; null on the last.
            #[schema(required = true)]
            pub next_cursor: Option<String>,
        }
    };
}

page!(
    /// A page of the team's artifacts, in key order.
    ArtifactPage of ArtifactSummary
);
page!(
    /// A page of an artifact's versions, oldest first.
    VersionPage of Version
);
page!(
    /// The team's active lockouts, by artifact and agent (all of them: `next_cursor` is null).
    LockoutPage of Lockout
);
page!(
    /// A page of the team's open escalations, oldest first.
    EscalationPage of Escalation
);
page!(
    /// A page of the team's agents, in id order.
    AgentPage of Agent
);

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRef {
    /// Null for the token set by `REVIEWLOCK_ADMIN_TOKEN`, which is not stored.
    #[schema(required = true)]
    pub id: Option<uuid::Uuid>,
    #[schema(required = true, example = "orchestrator")]
    pub name: Option<String>,
}

/// One state change (R12), as stored and served. Its schema in the spec is the tagged union
/// [`events::TypedEvent`]: one schema per `type`, each with its `data`.
#[derive(Debug, Serialize)]
pub struct Event {
    /// Team-wide, increasing, never reused.
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub artifact: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    /// The agent the change names, if any.
    pub actor: Option<String>,
    /// The token that made the change.
    pub token: TokenRef,
    /// As stored (`events::EventData` serialized when the event was appended), passed through
    /// as Postgres returns it rather than parsed and serialized again, which would change its
    /// bytes (`jsonb` orders and spaces keys its own way) for no gain: nothing but `EventData`
    /// writes it. `app::events::data` reads it as its type.
    pub data: Box<serde_json::value::RawValue>,
}

/// A page of the team's events, in seq order.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    #[schema(value_type = Vec<events::TypedEvent>)]
    pub items: Vec<Event>,
    /// Pass as `after` for the next poll: the last seq of this page, or `after` when empty.
    #[schema(example = 42)]
    pub next_after: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    #[schema(example = "acme")]
    pub id: String,
    #[schema(required = true, example = "Acme")]
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
    #[schema(example = "revision-eng")]
    pub id: String,
    #[schema(required = true, example = "Revision engineer")]
    pub display_name: Option<String>,
    pub kind: AgentKind,
    #[schema(example = json!(["engineer"]))]
    pub roles: Vec<String>,
    pub can_review: bool,
    pub can_author: bool,
    #[schema(example = json!(["rust", "auth"]))]
    pub expertise: Vec<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An active lockout of the agent.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentLockout {
    #[schema(example = "auth")]
    pub artifact: String,
    /// The rejected version the agent was credited on.
    #[schema(example = 1)]
    pub version: i32,
    #[schema(required = true, example = "Error handling is missing.")]
    pub reason: Option<String>,
    #[schema(example = "quality-reviewer")]
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
    #[schema(example = "orchestrator")]
    pub name: String,
    #[schema(value_type = Scope)]
    pub scope: String,
    /// The agent an `agent` token acts as; absent for other scopes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub agent: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A new token with its secret, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub info: Token,
    /// The bearer secret. It is stored only as a hash and cannot be shown again: a replay of
    /// the request (same `Idempotency-Key`) answers 200 with the token without it.
    #[schema(example = "rl_5f0c3a9e1b7d4c2a8e6f0b1d3c5a7e9f")]
    pub token: String,
}

// How `domain::PendingRemedy` (a remedy flattened beside who asked for it) is sent, described for
// the spec: a remedy closed to unknown fields cannot be the part of an `allOf`.
/// The remedy of the rejection that opened the current revision, with who asked for it.
#[derive(ToSchema)]
#[schema(as = PendingRemedy)]
#[allow(dead_code)]
pub struct PendingRemedySchema {
    action: RemedyAction,
    #[schema(required = true, example = "revision-eng")]
    agent: Option<String>,
    expertise: Vec<String>,
    #[schema(example = "quality-reviewer")]
    reviewer: String,
    #[schema(example = "Error handling is missing.")]
    reason: String,
}
