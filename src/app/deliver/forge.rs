//! Commit statuses: what each event means for the commits its versions were submitted as, and
//! the request each forge takes (docs/integrations.md). Used as a required status check, the
//! status makes the merge of an unapproved or rejected commit impossible.

use std::collections::HashMap;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderName};
use serde_json::json;

use crate::domain::{ForgeKind, State};
use crate::outbound::Request;
use crate::resources::events::{EventData, VersionKind};

/// A forge's API when none is given.
pub fn default_api_url(kind: ForgeKind) -> &'static str {
    match kind {
        ForgeKind::Github => "https://api.github.com",
        ForgeKind::Gitlab => "https://gitlab.com/api/v4",
    }
}

/// The longest description a forge keeps (GitHub's limit).
pub const MAX_DESCRIPTION: usize = 140;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusState {
    Pending,
    Success,
    Failure,
}

/// One commit status: the version it is about, its state and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub version: i32,
    pub state: StatusState,
    pub description: String,
}

/// The versions whose `ref` an event's statuses need.
pub fn versions_named(data: &EventData) -> Vec<i32> {
    match data {
        EventData::ArtifactCreated(_) => vec![1],
        EventData::VersionSubmitted(v) if v.kind == VersionKind::Supersede => vec![v.version - 1, v.version],
        EventData::VersionSubmitted(v) => vec![v.version],
        EventData::ReviewApproved(r) => vec![r.version],
        EventData::ReviewRejected(r) => vec![r.version],
        _ => vec![],
    }
}

/// The statuses an event sets, in order: a version in review is pending, approved a success,
/// rejected (deadlocked or not) or superseded while in review a failure.
pub fn statuses(data: &EventData) -> Vec<Status> {
    let status =
        |version, state, description: String| Status { version, state, description: fit(&description) };
    match data {
        EventData::ArtifactCreated(a) => {
            vec![status(1, StatusState::Pending, format!("in review: version 1 by {}", a.author))]
        }
        EventData::VersionSubmitted(v) => {
            let mut out = Vec::new();
            if v.kind == VersionKind::Supersede {
                out.push(status(
                    v.version - 1,
                    StatusState::Failure,
                    format!("superseded by version {}", v.version),
                ));
            }
            out.push(status(
                v.version,
                StatusState::Pending,
                format!("in review: version {} by {}", v.version, v.author),
            ));
            out
        }
        EventData::ReviewApproved(r) if r.state == State::Approved => {
            vec![status(r.version, StatusState::Success, format!("approved by {}", r.reviewer))]
        }
        EventData::ReviewApproved(r) => {
            let tally = match (r.approvals, r.required_approvals) {
                (Some(n), Some(of)) => format!("{n} of {of} approvals"),
                _ => "more approvals needed".into(),
            };
            vec![status(
                r.version,
                StatusState::Pending,
                format!("in review: {tally}, the last by {}", r.reviewer),
            )]
        }
        EventData::ReviewRejected(r) => {
            let consequence = if r.deadlocked == Some(true) {
                "needs a person: everyone eligible is locked out".to_owned()
            } else {
                format!("{} locked out", r.lockouts.join(", "))
            };
            let head = format!("rejected by {}: ", r.reviewer);
            let tail = format!(" — {consequence}");
            let room = MAX_DESCRIPTION.saturating_sub(head.chars().count() + tail.chars().count());
            let reason = shorten(r.reason.trim(), room.max(20));
            vec![status(r.version, StatusState::Failure, format!("{head}{reason}{tail}"))]
        }
        _ => vec![],
    }
}

/// Whether a `ref` is a full commit SHA (SHA-1 or SHA-256), the only kind a status is posted on.
pub fn is_commit_sha(r: &str) -> bool {
    matches!(r.len(), 40 | 64) && r.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The statuses of an event for the versions that have a commit SHA as `ref`: (sha, status).
pub fn on_commits(data: &EventData, refs: &HashMap<i32, String>) -> Vec<(String, Status)> {
    statuses(data)
        .into_iter()
        .filter_map(|s| refs.get(&s.version).filter(|r| is_commit_sha(r)).map(|r| (r.to_lowercase(), s)))
        .collect()
}

/// A forge to post to.
pub struct Forge<'a> {
    pub kind: ForgeKind,
    pub api_url: &'a str,
    pub repository: &'a str,
    pub token: &'a str,
    pub context: &'a str,
}

/// GitLab answers 400 "Cannot transition status via :enqueue from :pending" to a status that
/// would set a commit's status of that name to the state it is in (a pending after a pending:
/// an approval of several, or an event delivered again); only a finished status is replaced by
/// a new one. The commit shows the state sent, so the delivery is done (keeping the earlier
/// description).
const GITLAB_ALREADY_HELD: &str = "Cannot transition status via";

/// The request that sets `status` on `sha`, linking to `target_url` when given.
pub fn request(forge: &Forge<'_>, sha: &str, status: &Status, target_url: Option<&str>) -> Request {
    let base = forge.api_url.trim_end_matches('/');
    match forge.kind {
        ForgeKind::Github => {
            let state = match status.state {
                StatusState::Pending => "pending",
                StatusState::Success => "success",
                StatusState::Failure => "failure",
            };
            let mut body =
                json!({ "state": state, "description": status.description, "context": forge.context });
            if let Some(url) = target_url {
                body["target_url"] = json!(url);
            }
            let (owner, repo) = forge.repository.split_once('/').unwrap_or((forge.repository, ""));
            Request {
                url: format!("{base}/repos/{}/{}/statuses/{sha}", encode(owner), encode(repo)),
                headers: vec![
                    (ACCEPT, "application/vnd.github+json".into()),
                    (AUTHORIZATION, format!("Bearer {}", forge.token)),
                    (HeaderName::from_static("x-github-api-version"), "2022-11-28".into()),
                    (CONTENT_TYPE, "application/json".into()),
                ],
                body: body.to_string().into_bytes(),
                already_held: None,
            }
        }
        ForgeKind::Gitlab => {
            let state = match status.state {
                StatusState::Pending => "pending",
                StatusState::Success => "success",
                StatusState::Failure => "failed",
            };
            let mut body =
                json!({ "state": state, "description": status.description, "name": forge.context });
            if let Some(url) = target_url {
                body["target_url"] = json!(url);
            }
            Request {
                url: format!("{base}/projects/{}/statuses/{sha}", encode(forge.repository)),
                headers: vec![
                    (HeaderName::from_static("private-token"), forge.token.to_owned()),
                    (CONTENT_TYPE, "application/json".into()),
                ],
                body: body.to_string().into_bytes(),
                already_held: Some(GITLAB_ALREADY_HELD),
            }
        }
    }
}

/// A path segment, percent-encoded (a GitLab project path's `/` included).
fn encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// At most [`MAX_DESCRIPTION`] characters.
fn fit(text: &str) -> String {
    shorten(text, MAX_DESCRIPTION)
}

/// At most `max` characters, ending in `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ReviewKind, Verdict};
    use crate::resources::events::{ReviewRejected, VersionSubmitted};

    fn rejected(reason: &str, deadlocked: Option<bool>) -> EventData {
        EventData::ReviewRejected(ReviewRejected {
            version: 1,
            reviewer: "quality-reviewer".into(),
            verdict: Verdict::Reject,
            kind: ReviewKind::Review,
            state: if deadlocked.is_some() { State::Deadlocked } else { State::ChangesRequested },
            lockouts: vec!["runtime-eng".into()],
            reason: reason.into(),
            remedy: None,
            deadlocked,
        })
    }

    #[test]
    fn a_rejection_says_who_why_and_what_follows_within_140_characters() {
        let [s] = statuses(&rejected("No tests.", None)).try_into().unwrap();
        assert_eq!(s.state, StatusState::Failure);
        assert_eq!(s.description, "rejected by quality-reviewer: No tests. — runtime-eng locked out");
        let [s] = statuses(&rejected(&"very long reason ".repeat(20), Some(true))).try_into().unwrap();
        assert_eq!(s.description.chars().count(), MAX_DESCRIPTION);
        assert!(
            s.description.ends_with("… — needs a person: everyone eligible is locked out"),
            "{}",
            s.description
        );
    }

    #[test]
    fn a_superseded_version_fails_and_its_successor_is_pending() {
        let data = EventData::VersionSubmitted(VersionSubmitted {
            version: 3,
            cycle: 1,
            kind: VersionKind::Supersede,
            author: "a".into(),
            contributors: None,
            state: State::InReview,
        });
        assert_eq!(versions_named(&data), [2, 3]);
        let refs = HashMap::from([(2, "A".repeat(40)), (3, "not-a-sha".into())]);
        let posted = on_commits(&data, &refs);
        assert_eq!(posted.len(), 1, "a ref that is not a commit SHA gets no status");
        assert_eq!(posted[0].0, "a".repeat(40));
        assert_eq!(posted[0].1.description, "superseded by version 3");
    }

    #[test]
    fn each_forge_gets_its_own_request() {
        let status = Status { version: 1, state: StatusState::Failure, description: "x".into() };
        let forge = |kind, repository| Forge {
            kind,
            api_url: "http://127.0.0.1:1/api/",
            repository,
            token: "t",
            context: "reviewlock",
        };
        let github = request(&forge(ForgeKind::Github, "acme/web"), "abc", &status, Some("https://rl/ui/"));
        assert_eq!(github.url, "http://127.0.0.1:1/api/repos/acme/web/statuses/abc");
        let body: serde_json::Value = serde_json::from_slice(&github.body).unwrap();
        assert_eq!(
            body,
            json!({ "state": "failure", "description": "x", "context": "reviewlock", "target_url": "https://rl/ui/" })
        );
        let gitlab = request(&forge(ForgeKind::Gitlab, "group/sub/web"), "abc", &status, None);
        assert_eq!(gitlab.url, "http://127.0.0.1:1/api/projects/group%2Fsub%2Fweb/statuses/abc");
        let body: serde_json::Value = serde_json::from_slice(&gitlab.body).unwrap();
        assert_eq!(body, json!({ "state": "failed", "description": "x", "name": "reviewlock" }));
    }
}
