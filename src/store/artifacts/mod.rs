//! Artifacts with their versions, reviews, lockouts, assignments and escalations: the rows
//! here, the reads in `load.rs` (each one statement), the writes in `write.rs`.

use chrono::{DateTime, Utc};
use serde_json::Value;

use serde::Deserialize;

use crate::domain::{
    self, AgentId, AssignedBy, Contributor, ContributorRole, Evidence, Grounds, PendingRemedy, Policy,
    Remedy, ReviewKind, Roster, State, Verdict,
};

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct ArtifactRow {
    pub id: i64,
    pub key: String,
    pub title: String,
    pub kind: Option<String>,
    pub paths: Vec<String>,
    pub state: State,
    pub cycle: i32,
    pub revision: i64,
    pub current_version: i32,
    pub original_author: String,
    #[sqlx(json(nullable))]
    pub pending_remedy: Option<PendingRemedy>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

macro_rules! artifact_columns {
    () => {
        "id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct VersionRow {
    pub number: i32,
    pub cycle: i32,
    pub author: String,
    pub git_ref: Option<String>,
    pub summary: Option<String>,
    pub submitted_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ContributorRow {
    pub agent_id: AgentId,
    pub role: ContributorRole,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct ReviewRow {
    pub id: i64,
    pub number: i32,
    pub reviewer: String,
    pub verdict: Verdict,
    pub kind: ReviewKind,
    pub git_ref: Option<String>,
    pub grounds: Option<Grounds>,
    pub reason: Option<String>,
    #[sqlx(json(nullable))]
    pub remedy: Option<Remedy>,
    #[sqlx(json(nullable))]
    pub evidence: Option<Evidence>,
    pub created_at: DateTime<Utc>,
}

macro_rules! review_columns {
    () => {
        "r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct LockoutRow {
    pub artifact: String,
    pub agent_id: String,
    pub number: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct AssignmentRow {
    pub agent_id: String,
    pub note: Option<String>,
    pub assigned_by: AssignedBy,
    pub assigned_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct EscalationRow {
    pub id: i64,
    pub artifact: String,
    pub opened_at: DateTime<Utc>,
    pub details: Value,
}

/// An artifact with everything the rules and its status need.
#[derive(Debug, Clone, Deserialize)]
pub struct Loaded {
    pub artifact: ArtifactRow,
    pub current: VersionRow,
    /// The contributors of the current version, in the order they were credited.
    pub contributors: Vec<ContributorRow>,
    /// The reviews of every version of the current cycle.
    pub cycle_reviews: Vec<ReviewRow>,
    pub lockouts: Vec<LockoutRow>,
    pub assignment: Option<AssignmentRow>,
    /// The open escalation (R9).
    pub escalation: Option<EscalationRow>,
}

/// A team as one statement saw it: what the rules need of it, one artifact, and one agent's
/// locked paths, all from the same snapshot.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub policy: Policy,
    /// Increases with every change of the policy or the roster.
    pub team_revision: i64,
    pub roster: Roster,
    /// The artifact asked for, if it exists.
    pub artifact: Option<Loaded>,
    /// The artifacts whose files the agent asked for may not write, with their paths: those it
    /// is locked out of, or every one for an agent that may not author.
    pub locked_paths: Vec<LockedPaths>,
    /// The agent a check is about, when the writer names one (R16).
    pub writer: Option<String>,
    /// The team's last event seq, read by a check alone.
    pub seq: Option<i64>,
}

impl Loaded {
    pub fn current_reviews(&self) -> impl Iterator<Item = &ReviewRow> {
        self.cycle_reviews.iter().filter(|r| r.number == self.current.number)
    }

    /// The artifact as the rules see it.
    pub fn to_domain(&self) -> domain::Artifact {
        let verdicts = |verdict: Verdict| {
            self.current_reviews().filter(|r| r.verdict == verdict).map(|r| r.reviewer.clone()).collect()
        };
        domain::Artifact {
            state: self.artifact.state,
            cycle: self.artifact.cycle,
            current: domain::Version {
                number: self.current.number,
                author: self.current.author.clone(),
                contributors: self
                    .contributors
                    .iter()
                    .map(|c| Contributor { agent: c.agent_id.clone(), role: c.role })
                    .collect(),
                git_ref: self.current.git_ref.clone(),
                approvals: verdicts(Verdict::Approve),
                rejections: verdicts(Verdict::Reject),
            },
            lockouts: self.lockouts.iter().map(|l| l.agent_id.clone()).collect(),
            assignee: self.assignment.as_ref().map(|a| a.agent_id.clone()),
            pending_remedy: self.artifact.pending_remedy.clone(),
            cycle_rejecters: self
                .cycle_reviews
                .iter()
                .filter(|r| r.verdict == Verdict::Reject)
                .map(|r| r.reviewer.clone())
                .collect(),
        }
    }
}

/// A version with its contributors and reviews.
#[derive(Debug, Clone, Deserialize)]
pub struct VersionRecord {
    #[serde(flatten)]
    pub version: VersionRow,
    pub contributors: Vec<ContributorRow>,
    pub reviews: Vec<ReviewRow>,
}

/// An artifact whose files an agent may not write, with its paths: what a path check reads.
/// An abandoned artifact takes no more writes to guard and is left out.
#[derive(Debug, Clone, Deserialize)]
pub struct LockedPaths {
    pub id: i64,
    pub artifact: String,
    pub paths: Vec<String>,
    /// For a writer that names no agent: who is locked out of the artifact (R16).
    #[serde(default)]
    pub locked: Vec<String>,
}

mod load;
mod write;

pub use load::*;
pub use write::*;
