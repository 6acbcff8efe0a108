//! May this commit land (R17)? The question CI asks before a merge.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// May the commit `ref`, which changes these files, land?
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefCheckInput {
    /// The commit's SHA: 7 to 40 hexadecimal digits, any case. A version's `ref` names it when
    /// one is a prefix of the other, both at least 7 hexadecimal digits.
    #[serde(rename = "ref")]
    #[schema(
        min_length = 7,
        max_length = 40,
        pattern = "^[0-9A-Fa-f]{7,40}$",
        example = "9fceb02d0ae598e95dc970b74767f19372d61af8"
    )]
    pub git_ref: String,
    /// The files the commit changes, repository-relative with `/` separators, normalised as a
    /// check's are (R15). At most 1000 of at most 1000 bytes each, within the 256 KiB a body
    /// may hold.
    #[schema(max_items = 1000, example = json!(["src/auth/login.rs", "README.md"]))]
    pub paths: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RefCheckResult {
    /// True when every artifact covering a changed file has an approved version whose `ref` is
    /// the commit; true when no artifact covers any.
    pub allowed: bool,
    /// Each artifact (not abandoned) covering a changed file, in key order.
    pub artifacts: Vec<RefCheckArtifact>,
}

/// What one artifact covering the commit's files says about it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RefCheckArtifact {
    #[schema(example = "auth")]
    pub artifact: String,
    /// The changed files it covers, as normalised.
    #[schema(example = json!(["src/auth/login.rs"]))]
    pub paths: Vec<String>,
    /// The number of its version whose `ref` is the commit (the newest when several are), or
    /// null when none is.
    #[schema(required = true, example = 2)]
    pub version: Option<i32>,
    /// True when that version got the team's `required_approvals` approvals and no rejection.
    pub approved: bool,
    #[schema(example = "version 2 of 'auth' was approved (1 of 1 approvals)")]
    pub detail: String,
}
