//! One team as the index holds it: what a check needs, at one seq of the team's log.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::app::check::decide::{Facts, Locked, Question, decide};
use crate::app::globs::Coverage;
use crate::domain::{self, Policy, Roster, State};
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
}

/// What a check and a conditional read need of an artifact: what the index keeps of a
/// [`Loaded`], which it drops at once.
pub(super) struct Artifact {
    key: String,
    id: i64,
    paths: Vec<String>,
    revision: i64,
    /// As the rules see it.
    rules: domain::Artifact,
    /// `rules.lockouts` in id order, as a list.
    locked: Vec<String>,
}

impl Artifact {
    pub fn from_loaded(loaded: &Loaded) -> Artifact {
        let rules = loaded.to_domain();
        Artifact {
            key: loaded.artifact.key.clone(),
            id: loaded.artifact.id,
            paths: loaded.artifact.paths.clone(),
            revision: loaded.artifact.revision,
            locked: rules.lockouts.iter().cloned().collect(),
            rules,
        }
    }

    fn open(&self) -> bool {
        self.rules.state != State::Abandoned
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
        let locked_paths: Vec<Locked<'_>> = match &writer {
            Some(w) if self.roster.get(w).is_some_and(|a| a.active && !a.can_author) => self
                .artifacts
                .iter()
                .filter(|(_, a)| !a.paths.is_empty() && a.open())
                .map(|(k, a)| locked(k, a))
                .collect(),
            Some(w) => self
                .lockouts
                .get(w.as_str())
                .into_iter()
                .flatten()
                .filter_map(|k| self.artifacts.get_key_value(k))
                .filter(|(_, a)| a.open())
                .map(|(k, a)| locked(k, a))
                .collect(),
            None => self
                .locked
                .iter()
                .filter_map(|k| self.artifacts.get_key_value(k))
                .filter(|(_, a)| !a.paths.is_empty() && a.open())
                .map(|(k, a)| locked(k, a))
                .collect(),
        };
        let facts = Facts {
            policy: self.policy,
            roster: &self.roster,
            writer,
            artifact: question.artifact.and_then(|k| self.artifacts.get(k)).map(|a| &a.rules),
            locked_paths: locked_paths.into_iter(),
            seq: self.seq,
        };
        decide(facts, question, coverage)
    }
}
