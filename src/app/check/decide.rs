//! What a check decides, from facts read by the index or by the database: no IO.

use globset::Candidate;

use crate::app::globs::{self, Coverage};
use crate::domain::{self, Credits, Policy, Refusal, Roster};
use crate::resources::{CheckResult, Denial};
use crate::store::artifacts::Writer;

/// What a check decides on, from the index or from one statement of the database: the team's
/// policy and roster, the agent the writer names, the artifact asked about, and the artifacts
/// whose files the writer may not write (see `store::artifacts::load_check`).
pub struct Facts<'a, L> {
    pub policy: Policy,
    pub roster: &'a Roster,
    /// The agent the writer names (R16); `None` for a writer reviewlock cannot name.
    pub writer: Option<String>,
    /// The artifact asked about, when it exists.
    pub artifact: Option<&'a domain::Artifact>,
    /// In key order: for a named writer, the artifacts it is locked out of (every one with paths
    /// for an active agent that may not author); for one it cannot name, every artifact with paths
    /// someone is locked out of. Abandoned artifacts are left out.
    pub locked_paths: L,
    /// The team's event seq the facts reflect.
    pub seq: i64,
}

/// An artifact of [`Facts::locked_paths`].
pub struct Locked<'a> {
    pub id: i64,
    pub artifact: &'a str,
    pub paths: &'a [String],
    /// Who is locked out of it, in id order (read for a writer reviewlock cannot name).
    pub locked: &'a [String],
}

/// A check's request, parsed and allowed.
pub struct Question<'a> {
    pub writer: Writer<'a>,
    pub artifact: Option<&'a str>,
    /// Normalised (R15).
    pub paths: Vec<String>,
    pub min_seq: Option<i64>,
}

/// The answer to `question` from `facts`: no IO, the same whoever read them.
pub fn decide<'a>(
    facts: Facts<'a, impl Iterator<Item = Locked<'a>>>,
    question: &Question<'_>,
    coverage: &Coverage,
) -> CheckResult {
    let candidates: Vec<(&String, Candidate<'_>)> =
        question.paths.iter().map(|p| (p, globs::candidate(p))).collect();
    let covered = |locked: &Locked<'_>| {
        if candidates.is_empty() {
            return None;
        }
        let set = coverage.set(locked.id, locked.paths);
        candidates.iter().find(|(_, c)| set.is_match_candidate(c)).map(|(path, _)| path.as_str())
    };
    let denial = |artifact: &str, refusal: Refusal| Denial {
        artifact: Some(artifact.to_owned()),
        code: refusal.code,
        detail: refusal.detail,
    };
    let seq = facts.seq;
    let mut denials = Vec::new();
    let Some(asking) = facts.writer else {
        // R16: nobody the team knows; it may be anyone locked out.
        if let (Some(key), Some(artifact)) = (question.artifact, facts.artifact) {
            let locked: Vec<String> = artifact.lockouts.iter().cloned().collect();
            if !locked.is_empty() {
                denials.push(denial(key, domain::unnamed_writer(key, None, &locked)));
            }
        }
        for locked in facts.locked_paths {
            if let Some(path) = covered(&locked) {
                denials.push(denial(
                    locked.artifact,
                    domain::unnamed_writer(locked.artifact, Some(path), locked.locked),
                ));
            }
        }
        return CheckResult { allowed: denials.is_empty(), agent: None, denials, seq };
    };
    // An agent that is not an active member of the team is refused whatever it would write.
    let Some(agent) = facts.roster.get(&asking).filter(|a| a.active) else {
        let refusal = domain::decide_author(None, &asking).unwrap_err();
        let denial = Denial { artifact: None, code: refusal.code, detail: refusal.detail };
        return CheckResult { allowed: false, agent: Some(asking), denials: vec![denial], seq };
    };
    if let Some(key) = question.artifact {
        let (roster, policy) = (facts.roster, facts.policy);
        let refusal = match facts.artifact {
            Some(artifact) => domain::decide_write(artifact, roster, policy, &asking).err(),
            // Writing a new artifact is writing its first version.
            None => {
                domain::decide_first_version(roster, Credits { author: &asking, contributors: &[] }).err()
            }
        };
        denials.extend(refusal.map(|r| denial(key, r)));
    }
    for locked in facts.locked_paths {
        if let Some(path) = covered(&locked) {
            denials.push(denial(locked.artifact, domain::covered_file(agent, locked.artifact, path)));
        }
    }
    CheckResult { allowed: denials.is_empty(), agent: Some(asking), denials, seq }
}
