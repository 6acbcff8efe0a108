//! An artifact's versions and the reviews they get.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{AgentId, Contributor, Evidence, Grounds, Remedy, ReviewKind, Verdict};

/// A new version of an artifact.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionInput {
    /// The assignee after a rejection; the current author for a supersede.
    #[schema(value_type = String, example = "revision-eng")]
    pub author: AgentId,
    #[schema(max_items = 64)]
    pub contributors: Option<Vec<Contributor>>,
    #[serde(rename = "ref")]
    #[schema(max_length = 500, example = "8b41d07")]
    pub git_ref: Option<String>,
    #[schema(max_length = 10000, example = "Adds error handling to every login path.")]
    pub summary: Option<String>,
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

/// A verdict on one version (R1–R4).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewInput {
    #[schema(value_type = String, example = "quality-reviewer")]
    pub reviewer: AgentId,
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

page!(
    /// A page of an artifact's versions, oldest first.
    VersionPage of Version
);
