//! The reviewer rejection lockout protocol as pure code: no IO, no database, no HTTP.
//!
//! `app` loads an [`Artifact`] and the team's [`Roster`] inside a transaction, asks one of
//! the `decide_*` functions of [`rules`] what to do, and writes the returned outcome. Every rule
//! of PROTOCOL §4 is enforced in `rules.rs`; this file holds the words it speaks in.

mod codes;
mod ids;
mod paths;
mod refs;
pub mod rules;
#[cfg(test)]
mod tests;
mod words;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use codes::Code;
pub use ids::*;
pub use paths::*;
pub use refs::*;
pub use rules::*;
pub use words::*;

/// A team's policy (R11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Policy {
    pub profile: Profile,
    /// How many distinct approvals close a version; at least 1.
    pub required_approvals: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Self { profile: Profile::Standard, required_approvals: 1 }
    }
}

/// A team member as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    pub id: String,
    pub active: bool,
    pub can_review: bool,
    pub can_author: bool,
    pub expertise: BTreeSet<String>,
}

/// The team's agents, by id.
#[derive(Debug, Clone, Default)]
pub struct Roster(pub BTreeMap<String, Agent>);

impl Roster {
    pub fn get(&self, id: &str) -> Option<&Agent> {
        self.0.get(id)
    }

    /// Active agents that may write versions.
    pub fn authors(&self) -> impl Iterator<Item = &Agent> {
        self.0.values().filter(|a| a.active && a.can_author)
    }
}

/// An agent credited on a version besides its author.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contributor {
    pub agent: AgentId,
    pub role: ContributorRole,
}

/// The current version of an artifact with what its reviews decided so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub number: i32,
    pub author: String,
    pub contributors: Vec<Contributor>,
    pub git_ref: Option<String>,
    /// Reviewers who approved this version.
    pub approvals: BTreeSet<String>,
    /// Reviewers who rejected this version (at most one: a rejection decides it).
    pub rejections: BTreeSet<String>,
}

impl Version {
    /// Everyone credited on the version: the author and every contributor.
    pub fn credited(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.author.as_str()).chain(self.contributors.iter().map(|c| c.agent.as_str()))
    }

    pub fn is_credited(&self, agent: &str) -> bool {
        self.credited().any(|a| a == agent)
    }

    pub fn has_reviewed(&self, reviewer: &str) -> bool {
        self.approvals.contains(reviewer) || self.rejections.contains(reviewer)
    }
}

/// What a rejecting reviewer asks for (R3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Remedy {
    pub action: RemedyAction,
    /// A recommended agent; it must not be locked out (R4).
    pub agent: Option<AgentId>,
    /// For `escalate`: the tags the reviser must have, at least one.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub expertise: Vec<String>,
}

/// The remedy of the rejection that opened the current revision, with who asked for it. (Its
/// schema in the spec is `resources::schemas::PendingRemedySchema`: a flattened remedy closed to unknown
/// fields cannot be described as an `allOf`.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRemedy {
    #[serde(flatten)]
    pub remedy: Remedy,
    pub reviewer: String,
    pub reason: String,
}

/// A list that may be sent as `null`, read as empty.
fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<String>>::deserialize(d)?.unwrap_or_default())
}

/// Everything the rules need to know about one artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub state: State,
    pub cycle: i32,
    pub current: Version,
    /// Agents with an active lockout on this artifact (R3, R8).
    pub lockouts: BTreeSet<String>,
    /// The agent assigned to write the next version (R5).
    pub assignee: Option<String>,
    /// Set from a rejection until the next version is written.
    pub pending_remedy: Option<PendingRemedy>,
    /// Reviewers who rejected a version of the current cycle (a focused re-review under waza).
    pub cycle_rejecters: BTreeSet<String>,
}

/// Why the rules refuse a request: a stable code, a sentence for a person, and for shape
/// refusals the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub detail: String,
    pub field: Option<&'static str>,
}

impl Refusal {
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        Self { code, detail: detail.into(), field: None }
    }

    pub fn field(field: &'static str, detail: impl Into<String>) -> Self {
        Self { code: Code::InvalidField, detail: detail.into(), field: Some(field) }
    }
}

pub type Decision<T> = Result<T, Refusal>;
