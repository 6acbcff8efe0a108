//! The protocol's rules, unit-tested: PROTOCOL §3 (every state × action), §4 (R1–R11 as far as
//! the domain decides them) and §6 (the seed's examples). Each test builds a small team and one
//! artifact, drives the `decide_*` functions the way the service does (a [`World`] applies each
//! accepted decision to the artifact, as the service writes it), and asserts the outcome or the
//! refusal's `code` — never its message.

use std::collections::BTreeSet;

use super::*;

use ContributorRole::{Advisor, CoAuthor, Pair};
use world::*;

// ---------------------------------------------------------------------------------------------
// Agents and teams
// ---------------------------------------------------------------------------------------------

/// An active agent who may author and may not review.
fn author(id: &str) -> Agent {
    Agent { id: id.to_owned(), active: true, can_review: false, can_author: true, expertise: BTreeSet::new() }
}

/// An active reviewer who may not author.
fn reviewer(id: &str) -> Agent {
    Agent { can_review: true, can_author: false, ..author(id) }
}

trait AgentTweaks {
    fn retired(self) -> Self;
    fn also_reviews(self) -> Self;
    fn expert_in(self, tags: &[&str]) -> Self;
}

impl AgentTweaks for Agent {
    fn retired(self) -> Self {
        Agent { active: false, ..self }
    }

    fn also_reviews(self) -> Self {
        Agent { can_review: true, ..self }
    }

    fn expert_in(self, tags: &[&str]) -> Self {
        Agent { expertise: tags.iter().map(|t| t.to_string()).collect(), ..self }
    }
}

fn team(agents: impl IntoIterator<Item = Agent>) -> Roster {
    Roster(agents.into_iter().map(|a| (a.id.clone(), a)).collect())
}

/// Authors A, B, C and D; reviewers Q and R, who may not author; L, a lead who reviews and may
/// also author.
fn standard_team() -> Roster {
    team([
        author("A"),
        author("B"),
        author("C"),
        author("D"),
        reviewer("Q"),
        reviewer("R"),
        author("L").also_reviews(),
    ])
}

/// PROTOCOL §6 Example 3: exactly three authors A, B and C, and a reviewer Q who cannot author.
fn example_3_team() -> Roster {
    team([author("A"), author("B"), author("C"), reviewer("Q")])
}

fn standard() -> Policy {
    Policy::default()
}

fn waza() -> Policy {
    Policy { profile: Profile::Waza, ..Policy::default() }
}

fn needing_approvals(profile: Profile, required_approvals: u32) -> Policy {
    Policy { profile, required_approvals }
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/// A version as a coordinator submits it.
#[derive(Debug, Clone)]
struct Submission {
    author: String,
    contributors: Vec<Contributor>,
    git_ref: Option<String>,
}

fn by(author: &str) -> Submission {
    Submission { author: author.to_owned(), contributors: Vec::new(), git_ref: None }
}

impl Submission {
    fn with(mut self, role: ContributorRole, agent: &str) -> Self {
        self.contributors.push(Contributor { agent: AgentId::unchecked(agent), role });
        self
    }

    fn at_ref(mut self, git_ref: &str) -> Self {
        self.git_ref = Some(git_ref.to_owned());
        self
    }

    fn credits(&self) -> Credits<'_> {
        Credits { author: &self.author, contributors: &self.contributors }
    }

    fn into_version(self, number: i32) -> Version {
        Version {
            number,
            author: self.author,
            contributors: self.contributors,
            git_ref: self.git_ref,
            approvals: BTreeSet::new(),
            rejections: BTreeSet::new(),
        }
    }
}

const EVIDENCE_FIELDS: [&str; 4] =
    ["counter_evidence", "violated_requirement", "affected_scope", "approval_condition"];

fn evidence_field<'a>(evidence: &'a mut Evidence, name: &str) -> &'a mut Option<String> {
    match name {
        "counter_evidence" => &mut evidence.counter_evidence,
        "violated_requirement" => &mut evidence.violated_requirement,
        "affected_scope" => &mut evidence.affected_scope,
        "approval_condition" => &mut evidence.approval_condition,
        other => panic!("no evidence field {other}"),
    }
}

fn full_evidence() -> Evidence {
    let mut evidence = Evidence::default();
    for name in EVIDENCE_FIELDS {
        *evidence_field(&mut evidence, name) = Some(format!("the {name}"));
    }
    evidence
}

fn reassign() -> Remedy {
    Remedy { action: RemedyAction::Reassign, agent: None, expertise: Vec::new() }
}

/// A verdict as a coordinator posts it; it targets the current version unless told otherwise.
#[derive(Debug, Clone)]
struct Review {
    reviewer: String,
    version: Option<i32>,
    verdict: Verdict,
    git_ref: Option<String>,
    reason: Option<String>,
    remedy: Option<Remedy>,
    evidence: Option<Evidence>,
}

fn approve(reviewer: &str) -> Review {
    Review {
        reviewer: reviewer.to_owned(),
        version: None,
        verdict: Verdict::Approve,
        git_ref: None,
        reason: None,
        remedy: None,
        evidence: None,
    }
}

/// A complete rejection: a reason, a `reassign` remedy naming nobody, and all four parts of the
/// waza evidence (which the standard profile ignores).
fn reject(reviewer: &str) -> Review {
    Review {
        verdict: Verdict::Reject,
        reason: Some("error handling is missing".to_owned()),
        remedy: Some(reassign()),
        evidence: Some(full_evidence()),
        ..approve(reviewer)
    }
}

impl Review {
    fn of_version(mut self, number: i32) -> Self {
        self.version = Some(number);
        self
    }

    fn at_ref(mut self, git_ref: &str) -> Self {
        self.git_ref = Some(git_ref.to_owned());
        self
    }

    /// The agent the remedy recommends (R3, R4).
    fn naming(mut self, agent: &str) -> Self {
        self.remedy.get_or_insert_with(reassign).agent = Some(AgentId::unchecked(agent));
        self
    }

    fn escalating(mut self, expertise: &[&str]) -> Self {
        let remedy = self.remedy.get_or_insert_with(reassign);
        remedy.action = RemedyAction::Escalate;
        remedy.expertise = expertise.iter().map(|t| t.to_string()).collect();
        self
    }

    fn with_reason(mut self, reason: Option<&str>) -> Self {
        self.reason = reason.map(str::to_owned);
        self
    }

    fn with_remedy(mut self, remedy: Option<Remedy>) -> Self {
        self.remedy = remedy;
        self
    }

    fn without_evidence(mut self) -> Self {
        self.evidence = None;
        self
    }

    fn with_evidence_field(mut self, name: &str, value: Option<&str>) -> Self {
        *evidence_field(self.evidence.get_or_insert_with(Evidence::default), name) = value.map(str::to_owned);
        self
    }
}

// ---------------------------------------------------------------------------------------------
// One artifact in each state of PROTOCOL §3
// ---------------------------------------------------------------------------------------------

/// A wrote version 1; it awaits verdicts.
fn in_review() -> World {
    World::start(standard_team(), standard(), by("A"))
}

/// Q rejected A's version 1 (A is locked out); B was assigned, then released.
fn changes_requested() -> World {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    w.assign("B").unwrap();
    w.release().unwrap();
    w
}

/// Q rejected A's version 1 (A is locked out); B is assigned.
fn in_revision() -> World {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    w.assign("B").unwrap();
    w
}

/// Q approved A's version 1.
fn approved() -> World {
    let mut w = in_review();
    w.review(approve("Q")).unwrap();
    w
}

/// Example 3: A, B and C each wrote a version Q rejected; all three are locked out. Reviewer R
/// and, after the deadlock, author D joined the team.
fn deadlocked() -> World {
    let mut w = World::start(example_3_team(), standard(), by("A"));
    w.revise("Q", "B");
    w.revise("Q", "C");
    w.review(reject("Q")).unwrap();
    assert_eq!(w.state(), State::Deadlocked);
    w.join(reviewer("R"));
    w.join(author("D"));
    w
}

/// The user abandoned the deadlocked artifact.
fn abandoned() -> World {
    let mut w = deadlocked();
    w.resolve(Resolution::Abandon).unwrap();
    w
}

/// An action of PROTOCOL §3, answered by the state it leads to or the refusal's code.
#[derive(Debug, Clone, Copy)]
enum Action {
    Submit(&'static str),
    Approve(&'static str),
    Reject(&'static str),
    Assign(&'static str),
    Release,
    ResolveAssign(&'static str),
    ResolveAbandon,
    Lift(&'static str),
}

fn answer(world: &World, action: Action) -> Result<State, Code> {
    let mut w = world.clone();
    let decision = match action {
        Action::Submit(agent) => w.submit(by(agent)).map(drop),
        Action::Approve(agent) => w.review(approve(agent)).map(drop),
        Action::Reject(agent) => w.review(reject(agent)).map(drop),
        Action::Assign(agent) => w.assign(agent),
        Action::Release => w.release().map(drop),
        Action::ResolveAssign(agent) => w.resolve(Resolution::Assign(agent)).map(drop),
        Action::ResolveAbandon => w.resolve(Resolution::Abandon).map(drop),
        Action::Lift(agent) => w.lift(agent),
    };
    decision.code().map(|()| w.state())
}

#[track_caller]
fn assert_answers(world: &World, expected: &[(Action, Result<State, Code>)]) {
    for &(action, want) in expected {
        assert_eq!(answer(world, action), want, "{action:?} in {}", world.state().as_str());
    }
}

fn waza_in_review() -> World {
    World::start(standard_team(), waza(), by("A"))
}

mod codes;
mod examples;
mod lockouts;
mod policy;
mod reviews;
mod revisions;
mod states;
mod world;
