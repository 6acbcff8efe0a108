//! One team as the index holds it: what a check needs, at one seq of the team's log.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::app::check::decide::{Facts, Locked, Question, decide};
use crate::app::globs::Coverage;
use crate::domain::{self, PendingRemedy, Policy, Remedy, RemedyAction, Roster, State};
use crate::resources::CheckResult;
use crate::store::artifacts::{Loaded, TeamRecord, Writer};

/// A team at the seq `seq`: its policy, roster and aliases, and every artifact with what a
/// check reads of it. Built from one snapshot, and changed only by applying another.
pub(super) struct TeamState {
    /// The team's last event seq the state reflects.
    pub seq: i64,
    /// The count of notifications (and reconnections) of the team this state has caught up
    /// with: the state is current while nothing was heard since.
    pub synced: u64,
    policy: Policy,
    /// Increases with every change of the policy or the roster (an artifact's ETag holds it).
    revision: i64,
    roster: Roster,
    /// Alias → agent id (R16).
    aliases: HashMap<String, String>,
    /// By key, in key order (the order of `order by key` under the C collation).
    artifacts: BTreeMap<String, Artifact>,
    /// Agent → the keys of the artifacts it is locked out of.
    lockouts: HashMap<String, BTreeSet<String>>,
    /// The keys of the artifacts someone is locked out of.
    locked: BTreeSet<String>,
    /// Each glob's directory prefix (see [`prefix`]) → the artifacts with such a glob: a file can
    /// be covered only by the globs filed under one of its own directory prefixes, so a check
    /// tries those artifacts' globs alone, however many artifacts the team has.
    by_prefix: HashMap<Box<str>, Vec<Arc<str>>>,
}

/// The part of a glob before its first wildcard, cut back to its last `/`: every file the glob
/// matches starts with it (it is "" for a glob that starts with a wildcard, or has no `/`
/// before one).
fn prefix(glob: &str) -> &str {
    let literal = glob.find(['*', '?', '[', '{', '\\']).map_or(glob, |i| &glob[..i]);
    literal.rfind('/').map_or("", |i| &glob[..i])
}

/// The prefixes under which a glob that may match `path` is filed: "", every directory of the
/// path, and the path itself.
fn prefixes(path: &str) -> impl Iterator<Item = &str> {
    std::iter::once("").chain(path.match_indices('/').map(|(i, _)| &path[..i])).chain(std::iter::once(path))
}

/// What a check and a conditional read need of an artifact: what the index keeps of a
/// [`Loaded`], which it drops at once. As compact as the rules allow: what `decide_write` reads
/// of an artifact (its state, cycle, current version's number and author, assignee, the
/// rejecting reviewer of a pending remedy, the lockouts) and what a path check reads.
pub(super) struct Artifact {
    key: String,
    id: i64,
    paths: Vec<String>,
    revision: i64,
    state: State,
    cycle: i32,
    number: i32,
    author: Box<str>,
    assignee: Option<Box<str>>,
    /// The reviewer whose rejection's remedy is pending (R11).
    pending_reviewer: Option<Box<str>>,
    /// Who is locked out, in id order.
    locked: Vec<String>,
}

impl Artifact {
    pub fn from_loaded(loaded: &Loaded) -> Artifact {
        let a = &loaded.artifact;
        let mut locked: Vec<String> = loaded.lockouts.iter().map(|l| l.agent_id.clone()).collect();
        locked.sort_unstable();
        locked.dedup();
        Artifact {
            key: a.key.clone(),
            id: a.id,
            paths: a.paths.clone(),
            revision: a.revision,
            state: a.state,
            cycle: a.cycle,
            number: loaded.current.number,
            author: loaded.current.author.as_str().into(),
            assignee: loaded.assignment.as_ref().map(|s| s.agent_id.as_str().into()),
            pending_reviewer: a.pending_remedy.as_ref().map(|p| p.reviewer.as_str().into()),
            locked,
        }
    }

    fn open(&self) -> bool {
        self.state != State::Abandoned
    }

    /// The artifact as the rules read it for a write (`domain::decide_write`): what they do not
    /// read there (contributors, verdicts, the remedy's action and reason) is left empty.
    fn rules(&self) -> domain::Artifact {
        domain::Artifact {
            state: self.state,
            cycle: self.cycle,
            current: domain::Version {
                number: self.number,
                author: self.author.to_string(),
                contributors: Vec::new(),
                git_ref: None,
                approvals: BTreeSet::new(),
                rejections: BTreeSet::new(),
            },
            lockouts: self.locked.iter().cloned().collect(),
            assignee: self.assignee.as_deref().map(str::to_owned),
            pending_remedy: self.pending_reviewer.as_deref().map(|reviewer| PendingRemedy {
                remedy: Remedy { action: RemedyAction::Reassign, agent: None, expertise: Vec::new() },
                reviewer: reviewer.to_owned(),
                reason: String::new(),
            }),
            cycle_rejecters: BTreeSet::new(),
        }
    }
}

fn locked<'a>(key: &'a str, a: &'a Artifact) -> Locked<'a> {
    Locked { id: a.id, artifact: key, paths: &a.paths, locked: &a.locked }
}

impl TeamState {
    /// The team from one snapshot: `record` and every artifact.
    pub fn new(record: TeamRecord, artifacts: Vec<Artifact>, synced: u64) -> TeamState {
        let mut state = TeamState {
            seq: 0,
            synced,
            policy: record.policy,
            revision: 0,
            roster: Roster::default(),
            aliases: HashMap::new(),
            artifacts: BTreeMap::new(),
            lockouts: HashMap::new(),
            locked: BTreeSet::new(),
            by_prefix: HashMap::new(),
        };
        state.apply(record, &[], artifacts, synced);
        state
    }

    /// Applies what one snapshot read after `self.seq`: the team whole but its artifacts, the
    /// keys of the artifacts the events since named (`changed`) and those of them that exist,
    /// re-read. Afterwards the state is the team's at `record.seq`.
    pub fn apply(&mut self, record: TeamRecord, changed: &[String], artifacts: Vec<Artifact>, synced: u64) {
        self.seq = record.seq;
        self.synced = synced;
        self.policy = record.policy;
        self.revision = record.revision;
        self.roster = record.roster;
        self.aliases = record.aliases.into_iter().collect();
        for key in changed {
            self.remove(key);
        }
        for mut artifact in artifacts {
            let key = std::mem::take(&mut artifact.key);
            self.remove(&key);
            for agent in &artifact.locked {
                self.lockouts.entry(agent.clone()).or_default().insert(key.clone());
            }
            if !artifact.locked.is_empty() {
                self.locked.insert(key.clone());
            }
            let shared: Arc<str> = key.as_str().into();
            for glob in &artifact.paths {
                self.by_prefix.entry(prefix(glob).into()).or_default().push(shared.clone());
            }
            self.artifacts.insert(key, artifact);
        }
    }

    fn remove(&mut self, key: &str) {
        let Some(old) = self.artifacts.remove(key) else { return };
        for agent in &old.locked {
            if let Some(keys) = self.lockouts.get_mut(agent) {
                keys.remove(key);
                if keys.is_empty() {
                    self.lockouts.remove(agent);
                }
            }
        }
        self.locked.remove(key);
        for glob in &old.paths {
            let filed = prefix(glob);
            if let Some(keys) = self.by_prefix.get_mut(filed) {
                keys.retain(|k| &**k != key);
                if keys.is_empty() {
                    self.by_prefix.remove(filed);
                }
            }
        }
    }

    /// What the state holds, for the budget: artifacts, lockouts, agents and aliases.
    pub fn entries(&self) -> usize {
        self.artifacts.len()
            + self.lockouts.values().map(BTreeSet::len).sum::<usize>()
            + self.roster.0.len()
            + self.aliases.len()
    }

    /// The artifact's ETag (`app::artifact::etag`); `None` when it does not exist.
    pub fn artifact_etag(&self, key: &str) -> Option<String> {
        self.artifacts.get(key).map(|a| crate::app::artifact::etag(a.revision, self.revision))
    }

    /// The answer to `question`, as `check::decide` gives it from the database's facts.
    pub fn answer(&self, question: &Question<'_>, coverage: &Coverage) -> CheckResult {
        // As `store::artifacts::load_check` names the writer.
        let writer = match question.writer {
            Writer::Id(id) => Some(id.to_owned()),
            Writer::Named(name) if self.roster.get(name).is_some() => Some(name.to_owned()),
            Writer::Named(name) => self.aliases.get(name).cloned(),
            Writer::Nobody => None,
        };
        // The artifacts whose globs may cover one of the paths (none without paths); the
        // others cannot match, so only these are tried, in key order as always.
        let mut candidates: BTreeSet<&str> = BTreeSet::new();
        for path in &question.paths {
            for p in prefixes(path) {
                candidates.extend(self.by_prefix.get(p).into_iter().flatten().map(|k| &**k));
            }
        }
        let candidate = |k: &&str| self.artifacts.get_key_value(*k);
        let locked_paths: Vec<Locked<'_>> = match &writer {
            Some(w) if self.roster.get(w).is_some_and(|a| a.active && !a.can_author) => candidates
                .iter()
                .filter_map(candidate)
                .filter(|(_, a)| !a.paths.is_empty() && a.open())
                .map(|(k, a)| locked(k, a))
                .collect(),
            Some(w) => {
                let mine = self.lockouts.get(w.as_str());
                candidates
                    .iter()
                    .filter(|k| mine.is_some_and(|m| m.contains(**k)))
                    .filter_map(candidate)
                    .filter(|(_, a)| a.open())
                    .map(|(k, a)| locked(k, a))
                    .collect()
            }
            None => candidates
                .iter()
                .filter(|k| self.locked.contains(**k))
                .filter_map(candidate)
                .filter(|(_, a)| !a.paths.is_empty() && a.open())
                .map(|(k, a)| locked(k, a))
                .collect(),
        };
        let rules = question.artifact.and_then(|k| self.artifacts.get(k)).map(Artifact::rules);
        let facts = Facts {
            policy: self.policy,
            roster: &self.roster,
            writer,
            artifact: rules.as_ref(),
            locked_paths: locked_paths.into_iter(),
            seq: self.seq,
        };
        decide(facts, question, coverage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glob_is_filed_under_a_directory_every_file_it_matches_has() {
        assert_eq!(prefix("src/web/**"), "src/web");
        assert_eq!(prefix("src/web/*.rs"), "src/web");
        assert_eq!(prefix("src/st-1*/x"), "src");
        assert_eq!(prefix("src/{api,web}/v1/*.rs"), "src");
        assert_eq!(prefix("svc/auth.rs"), "svc");
        assert_eq!(prefix("**/*.toml"), "");
        assert_eq!(prefix("*.md"), "");
        assert_eq!(prefix("README.md"), "");
        assert_eq!(prefixes("src/web/a.rs").collect::<Vec<_>>(), ["", "src", "src/web", "src/web/a.rs"]);
        assert_eq!(prefixes("ui").collect::<Vec<_>>(), ["", "ui"]);
        // Every file a glob matches is found under one of its prefixes.
        for (glob, file) in [("src/web/**", "src/web/a/b.rs"), ("ui", "ui"), ("docs/*.md", "docs/x.md")] {
            assert!(prefixes(file).any(|p| p == prefix(glob)), "{glob} {file}");
        }
    }
}
