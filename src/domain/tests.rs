//! The protocol's rules, unit-tested: PROTOCOL §3 (every state × action), §4 (R1–R11 as far as
//! the domain decides them) and §6 (the seed's examples). Each test builds a small team and one
//! artifact, drives the `decide_*` functions the way the service does (a [`World`] applies each
//! accepted decision to the artifact, as the service writes it), and asserts the outcome or the
//! refusal's `code` — never its message.

use std::collections::{BTreeSet, HashSet};

use super::*;

use ContributorRole::{Advisor, CoAuthor, Pair};

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
        self.contributors.push(Contributor { agent: agent.to_owned(), role });
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
        self.remedy.get_or_insert_with(reassign).agent = Some(agent.to_owned());
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
// A world: one artifact of one team, changed only by accepted decisions
// ---------------------------------------------------------------------------------------------

/// One artifact and its team. Each action asks the rules and, when they accept, applies the
/// outcome as the service writes it; a refusal changes nothing.
#[derive(Debug, Clone)]
struct World {
    roster: Roster,
    policy: Policy,
    artifact: Artifact,
}

impl World {
    /// A new artifact with its first version, as `POST …/artifacts` writes it.
    fn start(roster: Roster, policy: Policy, first: Submission) -> World {
        if let Err(refusal) = decide_first_version(&roster, first.credits()) {
            panic!("the first version was refused: {refusal:?}");
        }
        let artifact = Artifact {
            state: State::InReview,
            cycle: 1,
            current: first.into_version(1),
            lockouts: BTreeSet::new(),
            assignee: None,
            pending_remedy: None,
            cycle_rejecters: BTreeSet::new(),
        };
        World { roster, policy, artifact }
    }

    fn submit(&mut self, submission: Submission) -> Decision<VersionKind> {
        let outcome = decide_version(&self.artifact, &self.roster, self.policy, submission.credits())?;
        assert_eq!(outcome.number, self.artifact.current.number + 1, "versions count 1, 2, 3…");
        let a = &mut self.artifact;
        a.state = State::InReview;
        a.cycle = outcome.cycle;
        a.current = submission.into_version(outcome.number);
        a.assignee = None;
        a.pending_remedy = None;
        Ok(outcome.kind)
    }

    fn review(&mut self, review: Review) -> Decision<ReviewOutcome> {
        let request = ReviewRequest {
            reviewer: &review.reviewer,
            version: review.version.unwrap_or(self.artifact.current.number),
            verdict: review.verdict,
            git_ref: review.git_ref.as_deref(),
            reason: review.reason.as_deref(),
            remedy: review.remedy.as_ref(),
            evidence: review.evidence.as_ref(),
        };
        let outcome = decide_review(&self.artifact, &self.roster, self.policy, request)?;
        let a = &mut self.artifact;
        match &outcome.result {
            ReviewResult::ApprovalRecorded { .. } => {
                a.current.approvals.insert(review.reviewer.clone());
            }
            ReviewResult::Approved => {
                // R8: approval ends the cycle and clears its lockouts.
                a.current.approvals.insert(review.reviewer.clone());
                a.lockouts.clear();
                a.cycle_rejecters.clear();
            }
            ReviewResult::Rejected { lockouts, pending, .. } => {
                a.current.rejections.insert(review.reviewer.clone());
                a.lockouts.extend(lockouts.iter().cloned());
                a.pending_remedy = Some(pending.clone());
                a.cycle_rejecters.insert(review.reviewer.clone());
            }
        }
        a.state = outcome.next_state();
        Ok(outcome)
    }

    fn assign(&mut self, agent: &str) -> Decision<()> {
        decide_assignment(&self.artifact, &self.roster, self.policy, agent)?;
        self.artifact.assignee = Some(agent.to_owned());
        self.artifact.state = State::InRevision;
        Ok(())
    }

    fn release(&mut self) -> Decision<String> {
        let released = decide_release(&self.artifact)?;
        self.artifact.assignee = None;
        self.artifact.state = State::ChangesRequested;
        Ok(released)
    }

    fn resolve(&mut self, resolution: Resolution) -> Decision<State> {
        let next = decide_resolution(&self.artifact, &self.roster, self.policy, resolution)?;
        if let Resolution::Assign(agent) = resolution {
            self.artifact.assignee = Some(agent.to_owned());
        }
        self.artifact.state = next;
        Ok(next)
    }

    fn lift(&mut self, agent: &str) -> Decision<()> {
        decide_lift(&self.artifact, agent)?;
        self.artifact.lockouts.remove(agent);
        Ok(())
    }

    /// The coordinator adds an agent to the team (or updates it).
    fn join(&mut self, agent: Agent) {
        self.roster.0.insert(agent.id.clone(), agent);
    }

    /// One revision round: `reviewer` rejects the current version (reassign), `reviser` is
    /// assigned and writes the next version.
    fn revise(&mut self, reviewer: &str, reviser: &str) {
        self.review(reject(reviewer)).expect("the rejection");
        self.assign(reviser).expect("the assignment");
        self.submit(by(reviser)).expect("the revision");
    }

    fn may_write(&self, agent: &str) -> Result<(), Code> {
        decide_write(&self.artifact, &self.roster, self.policy, agent).code()
    }

    fn eligible(&self) -> Vec<String> {
        eligible_agents(&self.artifact, &self.roster, self.policy)
    }

    fn state(&self) -> State {
        self.artifact.state
    }

    fn lockouts(&self) -> Vec<&str> {
        self.artifact.lockouts.iter().map(String::as_str).collect()
    }

    fn version(&self) -> i32 {
        self.artifact.current.number
    }

    fn cycle(&self) -> i32 {
        self.artifact.cycle
    }
}

trait Coded<T> {
    /// The outcome, or the refusal's stable code.
    fn code(self) -> Result<T, Code>;
}

impl<T> Coded<T> for Decision<T> {
    fn code(self) -> Result<T, Code> {
        self.map_err(|refusal| refusal.code)
    }
}

/// The field an `invalid_field` refusal points at.
fn refused_field<T: std::fmt::Debug>(decision: Decision<T>) -> &'static str {
    match decision {
        Err(Refusal { code: Code::InvalidField, field: Some(field), .. }) => field,
        other => panic!("expected an invalid_field refusal, got {other:?}"),
    }
}

fn new_lockouts(outcome: &ReviewOutcome) -> Vec<&str> {
    match &outcome.result {
        ReviewResult::Rejected { lockouts, .. } => lockouts.iter().map(String::as_str).collect(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

fn pending(outcome: &ReviewOutcome) -> &PendingRemedy {
    match &outcome.result {
        ReviewResult::Rejected { pending, .. } => pending,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

fn deadlocks(outcome: &ReviewOutcome) -> bool {
    match &outcome.result {
        ReviewResult::Rejected { deadlocked, .. } => *deadlocked,
        other => panic!("expected a rejection, got {other:?}"),
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

// ---------------------------------------------------------------------------------------------
// PROTOCOL §3: every state × action
// ---------------------------------------------------------------------------------------------

use Action::*;

#[test]
fn in_review_is_left_by_a_verdict_or_a_supersede_by_its_author() {
    let w = in_review();
    assert_answers(
        &w,
        &[
            (Submit("A"), Ok(State::InReview)), // the current author supersedes
            (Submit("B"), Err(Code::InvalidState)),
            (Approve("Q"), Ok(State::Approved)),
            (Reject("Q"), Ok(State::ChangesRequested)),
            (Assign("B"), Err(Code::InvalidState)),
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("B"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Err(Code::NotFound)), // nobody is locked out yet
        ],
    );
}

#[test]
fn in_review_of_a_revision_keeps_the_earlier_lockouts() {
    let mut w = in_review();
    w.revise("Q", "B");
    assert_answers(
        &w,
        &[
            (Submit("B"), Ok(State::InReview)), // the reviser supersedes its own version
            (Submit("A"), Err(Code::AgentLockedOut)), // rejected earlier in the cycle
            (Submit("C"), Err(Code::InvalidState)),
            (Approve("Q"), Ok(State::Approved)),
            (Reject("Q"), Ok(State::ChangesRequested)),
            (Assign("C"), Err(Code::InvalidState)),
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("C"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Ok(State::InReview)),
        ],
    );
}

#[test]
fn changes_requested_is_left_only_by_an_assignment() {
    let w = changes_requested();
    assert_answers(
        &w,
        &[
            (Submit("A"), Err(Code::AgentLockedOut)), // the rejected current author
            (Submit("B"), Err(Code::NotAssignee)),    // the released assignee
            (Submit("C"), Err(Code::NotAssignee)),
            (Approve("R"), Err(Code::VersionDecided)),
            (Reject("R"), Err(Code::VersionDecided)),
            (Assign("C"), Ok(State::InRevision)),
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("C"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Ok(State::ChangesRequested)),
        ],
    );
}

#[test]
fn in_revision_is_left_by_the_assignees_version_or_a_release() {
    let w = in_revision();
    assert_answers(
        &w,
        &[
            (Submit("A"), Err(Code::AgentLockedOut)), // the rejected current author
            (Submit("B"), Ok(State::InReview)),       // the assignee
            (Submit("C"), Err(Code::NotAssignee)),
            (Approve("R"), Err(Code::VersionDecided)),
            (Reject("R"), Err(Code::VersionDecided)),
            (Assign("C"), Err(Code::InvalidState)), // at most one active assignment
            (Release, Ok(State::ChangesRequested)),
            (ResolveAssign("C"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Ok(State::InRevision)),
        ],
    );
}

#[test]
fn approved_is_left_by_a_new_version_of_any_eligible_author() {
    let w = approved();
    assert_answers(
        &w,
        &[
            (Submit("A"), Ok(State::InReview)), // the current author starts a new cycle
            (Submit("B"), Ok(State::InReview)), // so does anyone else
            (Approve("R"), Err(Code::VersionDecided)),
            (Reject("R"), Err(Code::VersionDecided)),
            (Assign("B"), Err(Code::InvalidState)),
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("B"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Err(Code::NotFound)), // approval cleared every lockout
        ],
    );
}

#[test]
fn deadlocked_is_left_only_by_the_users_resolution() {
    let w = deadlocked();
    assert_answers(
        &w,
        &[
            (Submit("C"), Err(Code::AgentLockedOut)), // the rejected current author
            (Submit("D"), Err(Code::Deadlocked)),     // a new agent, not yet assigned
            (Approve("R"), Err(Code::VersionDecided)),
            (Reject("R"), Err(Code::VersionDecided)),
            (Assign("D"), Err(Code::Deadlocked)), // the coordinator may not re-admit anyone
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("D"), Ok(State::InRevision)),
            (ResolveAbandon, Ok(State::Abandoned)),
            (Lift("A"), Ok(State::Deadlocked)), // the user may lift; the deadlock stays
        ],
    );
}

#[test]
fn abandoned_is_terminal() {
    let w = abandoned();
    assert_answers(
        &w,
        &[
            (Submit("C"), Err(Code::AgentLockedOut)), // the rejected current author
            (Submit("D"), Err(Code::InvalidState)),
            (Approve("R"), Err(Code::VersionDecided)),
            (Reject("R"), Err(Code::VersionDecided)),
            (Assign("D"), Err(Code::InvalidState)),
            (Release, Err(Code::InvalidState)),
            (ResolveAssign("D"), Err(Code::InvalidState)),
            (ResolveAbandon, Err(Code::InvalidState)),
            (Lift("A"), Err(Code::InvalidState)),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// PROTOCOL §6: the seed's examples
// ---------------------------------------------------------------------------------------------

#[test]
fn example_1_reassign_locks_out_the_author_until_another_agents_revision_is_approved() {
    let mut w = in_review();
    let rejection = w.review(reject("Q")).unwrap();
    assert_eq!(rejection.next_state(), State::ChangesRequested);
    assert_eq!(w.lockouts(), ["A"]);
    assert_eq!(w.assign("A").code(), Err(Code::AgentLockedOut));
    w.assign("B").unwrap();
    assert_eq!(w.submit(by("B")).code(), Ok(VersionKind::Revision));
    assert_eq!(w.version(), 2);
    let approval = w.review(approve("Q")).unwrap();
    assert_eq!(approval.result, ReviewResult::Approved);
    assert_eq!(w.state(), State::Approved);
    assert!(w.lockouts().is_empty());
}

#[test]
fn example_2_escalation_is_revised_by_a_new_agent_with_the_expertise() {
    let mut w = in_review();
    w.review(reject("L").escalating(&["typescript"])).unwrap();
    assert_eq!(w.state(), State::ChangesRequested);
    assert_eq!(w.assign("B").code(), Err(Code::ExpertiseMismatch));
    w.join(author("T").expert_in(&["typescript"]));
    assert_eq!(w.eligible(), ["T"]);
    w.assign("T").unwrap();
    assert_eq!(w.submit(by("T")).code(), Ok(VersionKind::Revision));
    assert_eq!(w.review(approve("L")).unwrap().result, ReviewResult::Approved);
}

#[test]
fn example_3_three_rejected_authors_deadlock_and_the_user_resolves_with_a_new_agent() {
    let mut w = World::start(example_3_team(), standard(), by("A"));
    assert!(!deadlocks(&w.review(reject("Q")).unwrap()));
    w.assign("B").unwrap();
    w.submit(by("B")).unwrap();
    assert!(!deadlocks(&w.review(reject("Q")).unwrap()));
    w.assign("C").unwrap();
    w.submit(by("C")).unwrap();
    let third = w.review(reject("Q")).unwrap();
    assert!(deadlocks(&third));
    assert_eq!(third.next_state(), State::Deadlocked);
    assert_eq!(w.lockouts(), ["A", "B", "C"]);
    assert!(w.eligible().is_empty());
    for agent in ["A", "B", "C"] {
        assert_eq!(w.assign(agent).code(), Err(Code::Deadlocked));
    }
    w.join(author("D"));
    assert_eq!(w.assign("D").code(), Err(Code::Deadlocked));
    assert_eq!(w.eligible(), ["D"]);
    for agent in ["A", "B", "C"] {
        assert_eq!(
            w.resolve(Resolution::Assign(agent)).code(),
            Err(Code::AgentLockedOut),
            "even the user may not re-admit {agent}"
        );
    }
    assert_eq!(w.resolve(Resolution::Assign("D")).code(), Ok(State::InRevision));
    assert_eq!(w.submit(by("D")).code(), Ok(VersionKind::Revision));
    assert_eq!(w.version(), 4);
    assert_eq!(w.review(approve("Q")).unwrap().result, ReviewResult::Approved);
    assert!(w.lockouts().is_empty());
}

#[test]
fn example_4_naming_the_just_rejected_author_is_refused_and_nothing_is_recorded() {
    let mut w = in_review();
    let before = w.artifact.clone();
    assert_eq!(w.review(reject("Q").naming("A")).code(), Err(Code::LockedOutAgentNamed));
    assert_eq!(w.artifact, before);
    assert_eq!(w.state(), State::InReview);
    assert!(w.lockouts().is_empty());
    let renamed = w.review(reject("Q").naming("B")).unwrap();
    assert_eq!(pending(&renamed).remedy.agent.as_deref(), Some("B"));
}

// ---------------------------------------------------------------------------------------------
// R1: only reviewers judge, and never their own work
// ---------------------------------------------------------------------------------------------

#[test]
fn only_active_agents_with_can_review_judge() {
    let mut w = in_review();
    w.join(reviewer("Old").retired());
    for agent in ["nobody", "Old", "B"] {
        assert_eq!(w.review(approve(agent)).code(), Err(Code::NotAReviewer), "{agent} approves");
        assert_eq!(w.review(reject(agent)).code(), Err(Code::NotAReviewer), "{agent} rejects");
    }
}

#[test]
fn the_author_may_not_judge_its_own_version() {
    let mut w = World::start(standard_team(), standard(), by("L"));
    assert_eq!(w.review(approve("L")).code(), Err(Code::SelfReview));
    assert_eq!(w.review(reject("L")).code(), Err(Code::SelfReview));
}

#[test]
fn a_contributor_in_any_role_may_not_judge_the_version_it_is_credited_on() {
    for role in [CoAuthor, Pair, Advisor] {
        let mut w = World::start(standard_team(), standard(), by("A").with(role, "L"));
        assert_eq!(w.review(approve("L")).code(), Err(Code::SelfReview), "{role:?}");
        assert_eq!(w.review(reject("L")).code(), Err(Code::SelfReview), "{role:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// R2: a verdict binds to one version
// ---------------------------------------------------------------------------------------------

#[test]
fn a_verdict_on_an_earlier_version_is_stale() {
    let mut w = in_review();
    w.submit(by("A")).unwrap();
    assert_eq!(w.review(approve("Q").of_version(1)).code(), Err(Code::StaleVersion));
    w.revise("Q", "B");
    for number in [1, 2] {
        assert_eq!(w.review(reject("R").of_version(number)).code(), Err(Code::StaleVersion));
    }
    assert!(w.review(approve("R").of_version(3)).is_ok());
}

#[test]
fn a_verdict_on_a_version_above_the_current_one_is_not_found() {
    let mut w = in_review();
    for number in [2, 99, 0, -1] {
        assert_eq!(w.review(approve("Q").of_version(number)).code(), Err(Code::NotFound), "v{number}");
    }
}

#[test]
fn a_verdict_carrying_another_ref_is_stale_ref() {
    let mut w = World::start(standard_team(), standard(), by("A").at_ref("abc123"));
    assert_eq!(w.review(approve("Q").at_ref("def456")).code(), Err(Code::StaleRef));
    assert_eq!(w.review(reject("Q").at_ref("def456")).code(), Err(Code::StaleRef));
    assert!(w.clone().review(approve("Q")).is_ok(), "a verdict without ref");
    assert!(w.review(approve("Q").at_ref("abc123")).is_ok(), "a verdict with the same ref");
}

#[test]
fn a_verdict_carrying_a_ref_for_a_version_without_one_is_stale_ref() {
    let mut w = in_review();
    assert_eq!(w.review(approve("Q").at_ref("abc123")).code(), Err(Code::StaleRef));
}

#[test]
fn a_rejected_version_takes_no_more_verdicts() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    assert_eq!(w.review(approve("R")).code(), Err(Code::VersionDecided));
    assert_eq!(w.review(reject("R")).code(), Err(Code::VersionDecided));
}

#[test]
fn an_approved_version_takes_no_more_verdicts() {
    let mut w = in_review();
    w.review(approve("Q")).unwrap();
    assert_eq!(w.review(approve("R")).code(), Err(Code::VersionDecided));
    assert_eq!(w.review(reject("R")).code(), Err(Code::VersionDecided));
}

#[test]
fn one_reviewer_gives_at_most_one_verdict_per_version() {
    let mut w = World::start(standard_team(), needing_approvals(Profile::Standard, 2), by("A"));
    w.review(approve("Q")).unwrap();
    assert_eq!(w.review(approve("Q")).code(), Err(Code::DuplicateReview));
    assert_eq!(w.review(reject("Q")).code(), Err(Code::DuplicateReview));
}

#[test]
fn the_reviewer_who_rejected_may_judge_the_next_version() {
    let mut w = in_review();
    w.revise("Q", "B");
    assert_eq!(w.review(approve("Q")).unwrap().result, ReviewResult::Approved);
}

// ---------------------------------------------------------------------------------------------
// R3: a rejection locks out everyone credited, and says why and what to do
// ---------------------------------------------------------------------------------------------

#[test]
fn rejection_locks_out_author_and_every_contributor() {
    let mut w = World::start(
        standard_team(),
        standard(),
        by("A").with(CoAuthor, "B").with(Pair, "C").with(Advisor, "D"),
    );
    let rejection = w.review(reject("Q")).unwrap();
    assert_eq!(new_lockouts(&rejection), ["A", "B", "C", "D"]);
    assert!(!deadlocks(&rejection), "L may still revise");
    assert_eq!(w.state(), State::ChangesRequested);
    assert_eq!(w.lockouts(), ["A", "B", "C", "D"]);
    assert_eq!(w.eligible(), ["L"]);
}

#[test]
fn rejections_accumulate_lockouts_across_the_cycle() {
    let mut w = in_review();
    assert_eq!(new_lockouts(&w.review(reject("Q")).unwrap()), ["A"]);
    w.assign("B").unwrap();
    w.submit(by("B").with(CoAuthor, "C")).unwrap();
    let second = w.review(reject("R")).unwrap();
    assert_eq!(new_lockouts(&second), ["B", "C"], "only the newly locked out");
    assert_eq!(w.lockouts(), ["A", "B", "C"]);
}

#[test]
fn a_rejection_records_its_remedy_reviewer_and_reason_as_pending() {
    let mut w = in_review();
    let rejection = w.review(reject("Q").with_reason(Some("  no tests  ")).naming("C")).unwrap();
    assert_eq!(rejection.kind, ReviewKind::Review);
    assert_eq!(
        pending(&rejection),
        &PendingRemedy {
            remedy: Remedy {
                action: RemedyAction::Reassign,
                agent: Some("C".to_owned()),
                expertise: Vec::new(),
            },
            reviewer: "Q".to_owned(),
            reason: "no tests".to_owned(),
        }
    );
}

#[test]
fn a_rejection_must_carry_a_reason() {
    for reason in [None, Some(""), Some("   ")] {
        let mut w = in_review();
        assert_eq!(refused_field(w.review(reject("Q").with_reason(reason))), "reason", "{reason:?}");
        assert!(w.lockouts().is_empty());
    }
}

#[test]
fn a_rejection_must_carry_a_remedy() {
    let mut w = in_review();
    assert_eq!(refused_field(w.review(reject("Q").with_remedy(None))), "remedy");
}

#[test]
fn an_escalation_must_name_the_expertise_it_needs() {
    let mut w = in_review();
    assert_eq!(refused_field(w.review(reject("Q").escalating(&[]))), "remedy.expertise");
}

#[test]
fn an_approval_carries_no_remedy() {
    let mut w = in_review();
    assert_eq!(refused_field(w.review(approve("Q").with_remedy(Some(reassign())))), "remedy");
}

// ---------------------------------------------------------------------------------------------
// R4: the reviewer cannot name a locked-out agent
// ---------------------------------------------------------------------------------------------

#[test]
fn naming_a_contributor_of_the_rejected_version_is_locked_out_agent_named() {
    for role in [CoAuthor, Pair, Advisor] {
        let mut w = World::start(standard_team(), standard(), by("A").with(role, "B"));
        assert_eq!(w.review(reject("Q").naming("B")).code(), Err(Code::LockedOutAgentNamed), "{role:?}");
        assert_eq!(w.state(), State::InReview);
    }
}

#[test]
fn naming_an_agent_locked_out_earlier_in_the_cycle_is_locked_out_agent_named() {
    let mut w = in_review();
    w.revise("Q", "B");
    for review in [reject("Q").naming("A"), reject("Q").escalating(&["auth"]).naming("A")] {
        assert_eq!(w.review(review).code(), Err(Code::LockedOutAgentNamed));
    }
}

#[test]
fn naming_an_unknown_retired_or_non_authoring_agent_is_invalid_agent() {
    let mut w = in_review();
    w.join(author("Old").retired());
    for agent in ["nobody", "Old", "R"] {
        assert_eq!(w.review(reject("Q").naming(agent)).code(), Err(Code::InvalidAgent), "{agent}");
    }
}

#[test]
fn an_escalation_may_name_only_an_existing_expert() {
    let mut w = in_review();
    w.join(author("T").expert_in(&["typescript"]));
    assert_eq!(
        w.review(reject("Q").escalating(&["typescript"]).naming("B")).code(),
        Err(Code::ExpertiseMismatch)
    );
    let named = w.review(reject("Q").escalating(&["typescript"]).naming("T")).unwrap();
    assert_eq!(pending(&named).remedy.agent.as_deref(), Some("T"));
}

// ---------------------------------------------------------------------------------------------
// R5: verify before spawning
// ---------------------------------------------------------------------------------------------

#[test]
fn an_assignment_after_a_rejection_starts_the_revision() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    assert_eq!(w.assign("B").code(), Ok(()));
    assert_eq!(w.state(), State::InRevision);
    assert_eq!(w.artifact.assignee.as_deref(), Some("B"));
}

#[test]
fn assigning_a_locked_out_contributor_in_any_role_is_agent_locked_out() {
    for role in [CoAuthor, Pair, Advisor] {
        let mut w = World::start(standard_team(), standard(), by("A").with(role, "B"));
        w.review(reject("Q")).unwrap();
        for agent in ["A", "B"] {
            assert_eq!(w.assign(agent).code(), Err(Code::AgentLockedOut), "{agent} ({role:?})");
        }
    }
}

#[test]
fn assigning_an_unknown_retired_or_non_authoring_agent_is_invalid_agent() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    w.join(author("Old").retired());
    for agent in ["nobody", "Old", "R"] {
        assert_eq!(w.assign(agent).code(), Err(Code::InvalidAgent), "{agent}");
    }
}

#[test]
fn an_escalation_assignment_needs_every_required_tag() {
    let mut w = in_review();
    w.join(author("T").expert_in(&["typescript"]));
    w.join(author("U").expert_in(&["typescript", "auth", "sql"]));
    w.review(reject("Q").escalating(&["typescript", "auth"])).unwrap();
    assert_eq!(w.assign("B").code(), Err(Code::ExpertiseMismatch));
    assert_eq!(w.assign("T").code(), Err(Code::ExpertiseMismatch));
    assert_eq!(w.assign("U").code(), Ok(()));
}

#[test]
fn a_reassign_remedy_needs_no_expertise() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    assert_eq!(w.assign("B").code(), Ok(()));
}

#[test]
fn the_recommended_agent_is_advice_not_a_constraint() {
    let mut w = in_review();
    w.review(reject("Q").naming("B")).unwrap();
    assert_eq!(w.assign("C").code(), Ok(()));
}

#[test]
fn at_most_one_assignment_is_active() {
    let mut w = in_revision();
    assert_eq!(w.assign("C").code(), Err(Code::InvalidState));
    assert_eq!(w.assign("B").code(), Err(Code::InvalidState));
}

#[test]
fn a_released_assignment_frees_the_revision_for_another_agent() {
    let mut w = in_revision();
    assert_eq!(w.release().code(), Ok("B".to_owned()));
    assert_eq!(w.state(), State::ChangesRequested);
    assert_eq!(w.submit(by("B")).code(), Err(Code::NotAssignee));
    w.assign("C").unwrap();
    assert_eq!(w.submit(by("C")).code(), Ok(VersionKind::Revision));
}

// ---------------------------------------------------------------------------------------------
// R6: only the assignee writes the revision; no locked-out agent contributes in any form
// ---------------------------------------------------------------------------------------------

#[test]
fn only_the_assignee_writes_the_revision() {
    let mut w = in_revision();
    for agent in ["C", "D", "L"] {
        assert_eq!(w.submit(by(agent)).code(), Err(Code::NotAssignee), "{agent}");
    }
    assert_eq!(w.submit(by("B").with(CoAuthor, "C")).code(), Ok(VersionKind::Revision));
    assert_eq!(w.version(), 2);
    assert_eq!(w.cycle(), 1);
}

#[test]
fn revising_without_an_assignment_is_not_assignee() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    for agent in ["B", "C", "L"] {
        assert_eq!(w.submit(by(agent)).code(), Err(Code::NotAssignee), "{agent}");
    }
}

#[test]
fn the_locked_out_author_may_not_self_revise() {
    let mut w = in_revision();
    assert_eq!(w.submit(by("A")).code(), Err(Code::AgentLockedOut));
}

#[test]
fn a_locked_out_agent_may_not_contribute_to_the_revision_in_any_role() {
    for role in [CoAuthor, Pair, Advisor] {
        let mut w = in_revision();
        assert_eq!(w.submit(by("B").with(role, "A")).code(), Err(Code::AgentLockedOut), "{role:?}");
    }
}

#[test]
fn locked_out_contributors_of_the_rejected_version_stay_out_in_every_role() {
    let mut w = World::start(standard_team(), standard(), by("A").with(CoAuthor, "B").with(Pair, "C"));
    w.review(reject("Q")).unwrap();
    w.assign("L").unwrap();
    for agent in ["A", "B", "C"] {
        for role in [CoAuthor, Pair, Advisor] {
            assert_eq!(
                w.submit(by("L").with(role, agent)).code(),
                Err(Code::AgentLockedOut),
                "{agent} as {role:?}"
            );
        }
    }
    assert_eq!(w.submit(by("L").with(Advisor, "D")).code(), Ok(VersionKind::Revision));
}

#[test]
fn the_lockout_refusal_names_the_agent_and_its_role() {
    let mut w = in_revision();
    let refusal = w.submit(by("B").with(Advisor, "A")).unwrap_err();
    assert_eq!(refusal.code, Code::AgentLockedOut);
    assert!(refusal.detail.contains("'A'") && refusal.detail.contains("advisor"), "{refusal:?}");
}

#[test]
fn only_the_author_under_review_supersedes_its_version() {
    let mut w = in_review();
    assert_eq!(w.submit(by("B")).code(), Err(Code::InvalidState));
    assert_eq!(w.submit(by("B").with(CoAuthor, "A")).code(), Err(Code::InvalidState));
    assert_eq!(w.submit(by("A").with(CoAuthor, "B")).code(), Ok(VersionKind::Supersede));
    assert_eq!((w.version(), w.cycle()), (2, 1));
}

#[test]
fn a_supersede_is_still_subject_to_the_lockout_check() {
    let mut w = in_review();
    w.revise("Q", "B");
    for role in [CoAuthor, Pair, Advisor] {
        assert_eq!(w.submit(by("B").with(role, "A")).code(), Err(Code::AgentLockedOut), "{role:?}");
    }
    assert_eq!(w.submit(by("B")).code(), Ok(VersionKind::Supersede));
}

#[test]
fn a_version_after_approval_starts_a_new_cycle() {
    let mut w = in_review();
    w.revise("Q", "B");
    w.review(approve("Q")).unwrap();
    assert_eq!(w.submit(by("A")).code(), Ok(VersionKind::NewCycle), "A's lockout ended");
    assert_eq!((w.version(), w.cycle()), (3, 2));
}

#[test]
fn the_first_version_needs_an_active_authoring_author() {
    let roster = team([author("A"), author("Old").retired(), reviewer("Q")]);
    for agent in ["nobody", "Old", "Q"] {
        assert_eq!(
            decide_first_version(&roster, by(agent).credits()).code(),
            Err(Code::InvalidAgent),
            "{agent}"
        );
    }
    assert_eq!(decide_first_version(&roster, by("A").credits()).code(), Ok(()));
}

#[test]
fn every_contributor_must_be_an_active_agent() {
    let roster = team([author("A"), author("B"), author("Old").retired()]);
    for role in [CoAuthor, Pair, Advisor] {
        for agent in ["nobody", "Old"] {
            let first = by("A").with(role, agent);
            assert_eq!(
                decide_first_version(&roster, first.credits()).code(),
                Err(Code::InvalidAgent),
                "{agent} as {role:?}"
            );
        }
    }
    let mut w = in_revision();
    w.join(author("Old").retired());
    assert_eq!(w.submit(by("B").with(Pair, "Old")).code(), Err(Code::InvalidAgent));
}

#[test]
fn nobody_is_credited_twice_on_a_version() {
    let roster = standard_team();
    let twice = [by("A").with(CoAuthor, "A"), by("A").with(CoAuthor, "B").with(Advisor, "B")];
    for submission in twice {
        assert_eq!(refused_field(decide_first_version(&roster, submission.credits())), "contributors");
    }
    let mut w = in_revision();
    assert_eq!(refused_field(w.submit(by("B").with(Pair, "B"))), "contributors");
}

#[test]
fn an_assignee_retired_since_the_assignment_may_not_write() {
    let mut w = in_revision();
    w.join(author("B").retired());
    assert_eq!(w.submit(by("B")).code(), Err(Code::InvalidAgent));
}

// ---------------------------------------------------------------------------------------------
// R7: lockout is per artifact
// ---------------------------------------------------------------------------------------------

#[test]
fn an_agent_locked_out_of_one_artifact_authors_another_freely() {
    let mut auth = in_review();
    auth.review(reject("Q")).unwrap();
    assert_eq!(auth.lockouts(), ["A"]);

    // A new artifact: A writes its first version.
    let mut config = World::start(auth.roster.clone(), standard(), by("A"));
    assert_eq!(config.submit(by("A")).code(), Ok(VersionKind::Supersede));

    // Another artifact's rejection may name A, and A may revise it.
    let mut billing = World::start(auth.roster.clone(), standard(), by("B"));
    billing.review(reject("Q").naming("A")).unwrap();
    assert_eq!(billing.eligible(), ["A", "C", "D", "L"]);
    billing.assign("A").unwrap();
    assert_eq!(billing.submit(by("A").with(Pair, "C")).code(), Ok(VersionKind::Revision));

    // Meanwhile A is still out of the first one.
    assert_eq!(auth.assign("A").code(), Err(Code::AgentLockedOut));
    assert_eq!(auth.may_write("A"), Err(Code::AgentLockedOut));
}

#[test]
fn an_agent_locked_out_of_one_artifact_reviews_another_freely() {
    let mut auth = World::start(standard_team(), standard(), by("L"));
    auth.review(reject("Q")).unwrap();
    assert_eq!(auth.lockouts(), ["L"]);
    let mut billing = World::start(auth.roster.clone(), standard(), by("A"));
    assert_eq!(billing.review(approve("L")).unwrap().result, ReviewResult::Approved);
}

// ---------------------------------------------------------------------------------------------
// R8: lockouts persist until approval
// ---------------------------------------------------------------------------------------------

#[test]
fn lockouts_persist_through_assignment_release_and_revision_until_approval() {
    let mut w = in_review();
    w.review(reject("Q")).unwrap();
    w.assign("B").unwrap();
    assert_eq!(w.lockouts(), ["A"]);
    w.release().unwrap();
    assert_eq!(w.lockouts(), ["A"]);
    w.assign("C").unwrap();
    w.submit(by("C")).unwrap();
    assert_eq!(w.lockouts(), ["A"], "writing the revision does not clear it");
    assert_eq!(w.may_write("A"), Err(Code::AgentLockedOut));
    assert!(!w.eligible().contains(&"A".to_owned()));
    let approval = w.review(approve("R")).unwrap();
    assert_eq!(approval.result, ReviewResult::Approved);
    assert_eq!(approval.next_state(), State::Approved);
    assert!(w.lockouts().is_empty());
    assert_eq!(w.may_write("A"), Ok(()));
}

#[test]
fn a_rejected_revision_locks_out_its_author_too_and_a_third_agent_revises() {
    let mut w = in_review();
    w.revise("Q", "B");
    w.review(reject("Q")).unwrap();
    assert_eq!(w.lockouts(), ["A", "B"]);
    for agent in ["A", "B"] {
        assert_eq!(w.assign(agent).code(), Err(Code::AgentLockedOut), "{agent}");
    }
    assert_eq!(w.eligible(), ["C", "D", "L"]);
    w.assign("C").unwrap();
    assert_eq!(w.submit(by("C")).code(), Ok(VersionKind::Revision));
}

// ---------------------------------------------------------------------------------------------
// R9: deadlock goes to the user
// ---------------------------------------------------------------------------------------------

#[test]
fn an_escalate_remedy_never_deadlocks() {
    let mut w = World::start(example_3_team(), standard(), by("A"));
    w.revise("Q", "B");
    w.revise("Q", "C");
    let third = w.review(reject("Q").escalating(&["typescript"])).unwrap();
    assert!(!deadlocks(&third));
    assert_eq!(w.state(), State::ChangesRequested);
    assert!(w.eligible().is_empty(), "it asks for a new expert");
    w.join(author("T").expert_in(&["typescript"]));
    assert_eq!(w.assign("T").code(), Ok(()));
}

#[test]
fn a_deadlock_counts_only_active_authoring_agents() {
    let roster = team([author("A"), author("Old").retired(), reviewer("Q"), reviewer("R")]);
    let mut w = World::start(roster, standard(), by("A"));
    assert!(deadlocks(&w.review(reject("Q")).unwrap()));
    assert_eq!(w.state(), State::Deadlocked);
}

#[test]
fn a_deadlock_counts_everyone_credited_on_the_rejected_version() {
    let roster = team([author("A"), author("B"), author("C"), reviewer("Q")]);
    let mut w = World::start(roster, standard(), by("A").with(Pair, "B").with(Advisor, "C"));
    assert!(deadlocks(&w.review(reject("Q")).unwrap()));
}

#[test]
fn the_coordinator_may_not_re_admit_anyone_at_a_deadlock() {
    let mut w = deadlocked();
    for agent in ["A", "B", "C", "D"] {
        assert_eq!(w.assign(agent).code(), Err(Code::Deadlocked), "{agent}");
    }
}

#[test]
fn the_user_resolves_a_deadlock_only_with_an_agent_who_may_revise() {
    let mut w = deadlocked();
    w.join(author("Old").retired());
    for agent in ["A", "B", "C"] {
        assert_eq!(w.resolve(Resolution::Assign(agent)).code(), Err(Code::AgentLockedOut), "{agent}");
    }
    for agent in ["nobody", "Old", "Q"] {
        assert_eq!(w.resolve(Resolution::Assign(agent)).code(), Err(Code::InvalidAgent), "{agent}");
    }
    assert_eq!(w.state(), State::Deadlocked);
    assert_eq!(w.resolve(Resolution::Assign("D")).code(), Ok(State::InRevision));
    assert_eq!(w.artifact.assignee.as_deref(), Some("D"));
    assert_eq!(w.submit(by("A")).code(), Err(Code::AgentLockedOut));
    assert_eq!(w.submit(by("D").with(Advisor, "A")).code(), Err(Code::AgentLockedOut));
    assert_eq!(w.submit(by("D")).code(), Ok(VersionKind::Revision));
}

#[test]
fn the_user_may_abandon_a_deadlocked_artifact() {
    let mut w = deadlocked();
    assert_eq!(w.resolve(Resolution::Abandon).code(), Ok(State::Abandoned));
    assert_eq!(w.may_write("D"), Err(Code::InvalidState));
}

#[test]
fn only_a_deadlocked_artifact_is_resolved() {
    for w in [in_review(), changes_requested(), in_revision(), approved(), abandoned()] {
        for resolution in [Resolution::Assign("D"), Resolution::Abandon] {
            assert_eq!(
                w.clone().resolve(resolution).code(),
                Err(Code::InvalidState),
                "{resolution:?} in {}",
                w.state().as_str()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// R10: only the user lifts a lockout early, one agent at a time
// ---------------------------------------------------------------------------------------------

#[test]
fn lifting_a_lockout_readmits_only_that_agent() {
    let mut w = World::start(standard_team(), standard(), by("A").with(CoAuthor, "B"));
    w.review(reject("Q")).unwrap();
    assert_eq!(w.lift("A").code(), Ok(()));
    assert_eq!(w.lockouts(), ["B"]);
    assert_eq!(w.assign("B").code(), Err(Code::AgentLockedOut));
    assert_eq!(w.assign("A").code(), Ok(()));
}

#[test]
fn lifting_an_agent_without_a_lockout_is_not_found() {
    let mut w = changes_requested();
    for agent in ["B", "nobody"] {
        assert_eq!(w.lift(agent).code(), Err(Code::NotFound), "{agent}");
    }
}

#[test]
fn a_lifted_lockout_lets_the_user_resolve_a_deadlock_with_that_agent() {
    let mut w = World::start(example_3_team(), standard(), by("A"));
    w.revise("Q", "B");
    w.revise("Q", "C");
    w.review(reject("Q")).unwrap();
    w.lift("B").unwrap();
    assert_eq!(w.state(), State::Deadlocked);
    assert_eq!(w.assign("B").code(), Err(Code::Deadlocked));
    assert_eq!(w.resolve(Resolution::Assign("B")).code(), Ok(State::InRevision));
}

// ---------------------------------------------------------------------------------------------
// R11: policy profiles — waza
// ---------------------------------------------------------------------------------------------

fn waza_in_review() -> World {
    World::start(standard_team(), waza(), by("A"))
}

#[test]
fn a_waza_rejection_without_evidence_is_incomplete() {
    let mut w = waza_in_review();
    assert_eq!(w.review(reject("Q").without_evidence()).code(), Err(Code::IncompleteRejection));
    assert_eq!(w.state(), State::InReview);
    assert!(w.lockouts().is_empty());
}

#[test]
fn a_waza_rejection_missing_any_one_evidence_field_is_incomplete() {
    for field in EVIDENCE_FIELDS {
        for value in [None, Some(""), Some("  ")] {
            let mut w = waza_in_review();
            assert_eq!(
                w.review(reject("Q").with_evidence_field(field, value)).code(),
                Err(Code::IncompleteRejection),
                "{field} = {value:?}"
            );
        }
    }
}

#[test]
fn a_waza_rejection_with_all_four_evidence_fields_is_accepted() {
    let mut w = waza_in_review();
    assert_eq!(w.review(reject("Q")).map(|o| o.next_state()).code(), Ok(State::ChangesRequested));
}

#[test]
fn the_standard_profile_needs_no_evidence() {
    let mut w = in_review();
    assert_eq!(
        w.review(reject("Q").without_evidence()).map(|o| o.next_state()).code(),
        Ok(State::ChangesRequested)
    );
}

#[test]
fn a_waza_approval_needs_no_evidence() {
    let mut w = waza_in_review();
    assert_eq!(w.review(approve("Q")).unwrap().result, ReviewResult::Approved);
}

#[test]
fn waza_rejecting_reviewer_may_not_be_named_as_remedy_agent() {
    let mut w = waza_in_review();
    assert_eq!(w.review(reject("L").naming("L")).code(), Err(Code::RejectingReviewerExcluded));
    assert_eq!(w.state(), State::InReview);
    let mut s = in_review();
    assert!(s.review(reject("L").naming("L")).is_ok(), "the standard profile allows it");
}

#[test]
fn waza_rejecting_reviewer_may_not_be_assigned() {
    let mut w = waza_in_review();
    w.review(reject("L")).unwrap();
    assert_eq!(w.assign("L").code(), Err(Code::RejectingReviewerExcluded));
    assert!(!w.eligible().contains(&"L".to_owned()));
    let mut s = in_review();
    s.review(reject("L")).unwrap();
    assert_eq!(s.assign("L").code(), Ok(()), "the standard profile allows it");
}

#[test]
fn waza_rejecting_reviewer_may_not_be_credited_on_the_next_version() {
    let mut w = waza_in_review();
    w.review(reject("L")).unwrap();
    w.assign("B").unwrap();
    for role in [CoAuthor, Pair, Advisor] {
        assert_eq!(
            w.submit(by("B").with(role, "L")).code(),
            Err(Code::RejectingReviewerExcluded),
            "{role:?}"
        );
    }
    assert_eq!(w.submit(by("L")).code(), Err(Code::RejectingReviewerExcluded));
    assert_eq!(w.may_write("L"), Err(Code::RejectingReviewerExcluded));
    assert_eq!(w.submit(by("B").with(Pair, "C")).code(), Ok(VersionKind::Revision));
}

#[test]
fn the_standard_profile_lets_the_rejecting_reviewer_help_revise() {
    let mut w = in_review();
    w.review(reject("L")).unwrap();
    w.assign("B").unwrap();
    assert_eq!(w.submit(by("B").with(Advisor, "L")).code(), Ok(VersionKind::Revision));
}

#[test]
fn waza_exclusion_covers_only_the_immediate_revision() {
    let mut w = waza_in_review();
    w.join(author("M").also_reviews());
    w.review(reject("L")).unwrap();
    w.assign("B").unwrap();
    w.submit(by("B")).unwrap();
    // M rejects the revision: now M is excluded and L no longer is.
    w.review(reject("M")).unwrap();
    assert_eq!(w.assign("M").code(), Err(Code::RejectingReviewerExcluded));
    assert!(w.eligible().contains(&"L".to_owned()));
    w.assign("L").unwrap();
    assert_eq!(w.submit(by("L").with(Advisor, "M")).code(), Err(Code::RejectingReviewerExcluded));
    assert_eq!(w.submit(by("L")).code(), Ok(VersionKind::Revision));
}

#[test]
fn waza_rejecting_reviewer_focus_rereviews_the_revision() {
    let mut w = waza_in_review();
    w.review(reject("L")).unwrap();
    w.assign("B").unwrap();
    w.submit(by("B")).unwrap();
    assert_eq!(w.clone().review(approve("Q")).unwrap().kind, ReviewKind::Review);
    let rereview = w.review(approve("L")).unwrap();
    assert_eq!(rereview.kind, ReviewKind::FocusedRereview);
    assert_eq!(rereview.kind.as_str(), "focused_rereview");
    assert_eq!(rereview.result, ReviewResult::Approved);
}

#[test]
fn waza_focused_rereview_covers_every_rejecter_of_the_cycle() {
    let mut w = World::start(standard_team(), needing_approvals(Profile::Waza, 3), by("A"));
    w.revise("L", "B");
    w.revise("Q", "C");
    let by_l = w.review(approve("L")).unwrap();
    assert_eq!(by_l.kind, ReviewKind::FocusedRereview);
    let by_q = w.review(approve("Q")).unwrap();
    assert_eq!(by_q.kind, ReviewKind::FocusedRereview);
    let by_r = w.review(approve("R")).unwrap();
    assert_eq!(by_r.kind, ReviewKind::Review);
    assert_eq!(by_r.result, ReviewResult::Approved);
}

#[test]
fn a_waza_focused_rereview_may_reject_again() {
    let mut w = waza_in_review();
    w.revise("L", "B");
    let again = w.review(reject("L")).unwrap();
    assert_eq!(again.kind, ReviewKind::FocusedRereview);
    assert_eq!(new_lockouts(&again), ["B"]);
}

#[test]
fn the_standard_profile_records_a_plain_review_from_an_earlier_rejecter() {
    let mut w = in_review();
    w.revise("L", "B");
    assert_eq!(w.review(approve("L")).unwrap().kind, ReviewKind::Review);
}

#[test]
fn waza_deadlock_counts_the_rejecting_reviewer_as_excluded() {
    let roster = team([author("A"), author("B"), author("L").also_reviews()]);
    let mut w = World::start(roster.clone(), waza(), by("A"));
    assert!(!deadlocks(&w.review(reject("L")).unwrap()), "B remains");
    w.assign("B").unwrap();
    w.submit(by("B")).unwrap();
    assert!(deadlocks(&w.review(reject("L")).unwrap()));
    assert_eq!(w.state(), State::Deadlocked);
    assert_eq!(w.resolve(Resolution::Assign("L")).code(), Err(Code::RejectingReviewerExcluded));

    let mut s = World::start(roster, standard(), by("A"));
    s.revise("L", "B");
    assert!(!deadlocks(&s.review(reject("L")).unwrap()), "under standard L may revise");
    assert_eq!(s.eligible(), ["L"]);
}

// ---------------------------------------------------------------------------------------------
// R11: required approvals
// ---------------------------------------------------------------------------------------------

#[test]
fn with_two_required_approvals_the_first_is_recorded_and_the_second_approves() {
    for profile in [Profile::Standard, Profile::Waza] {
        let mut w = World::start(standard_team(), needing_approvals(profile, 2), by("A"));
        let first = w.review(approve("Q")).unwrap();
        assert_eq!(first.result, ReviewResult::ApprovalRecorded { approvals: 1, required: 2 });
        assert_eq!(first.next_state(), State::InReview);
        assert_eq!(w.review(approve("Q")).code().map(drop), Err(Code::DuplicateReview));
        let second = w.review(approve("R")).unwrap();
        assert_eq!(second.result, ReviewResult::Approved);
        assert_eq!(w.state(), State::Approved);
        assert_eq!(w.review(approve("L")).code().map(drop), Err(Code::VersionDecided));
    }
}

#[test]
fn with_two_required_approvals_a_single_rejection_after_one_approval_decides() {
    let mut w = World::start(standard_team(), needing_approvals(Profile::Standard, 2), by("A"));
    w.review(approve("Q")).unwrap();
    let rejection = w.review(reject("R")).unwrap();
    assert_eq!(rejection.next_state(), State::ChangesRequested);
    assert_eq!(new_lockouts(&rejection), ["A"]);
    assert_eq!(w.review(approve("L")).code().map(drop), Err(Code::VersionDecided));
}

#[test]
fn with_three_required_approvals_each_distinct_approval_counts() {
    let mut w = World::start(standard_team(), needing_approvals(Profile::Standard, 3), by("A"));
    let counts: Vec<ReviewResult> =
        ["Q", "R", "L"].into_iter().map(|reviewer| w.review(approve(reviewer)).unwrap().result).collect();
    assert_eq!(
        counts,
        [
            ReviewResult::ApprovalRecorded { approvals: 1, required: 3 },
            ReviewResult::ApprovalRecorded { approvals: 2, required: 3 },
            ReviewResult::Approved,
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// eligible_agents and decide_write
// ---------------------------------------------------------------------------------------------

#[test]
fn eligible_agents_are_active_authors_neither_locked_out_nor_excluded() {
    let mut w = in_review();
    w.join(author("Old").retired());
    assert!(w.eligible().is_empty(), "no revision is pending while a version is in review");
    w.review(reject("Q").naming("C")).unwrap();
    assert_eq!(w.eligible(), ["B", "C", "D", "L"], "A is locked out; reviewers Q and R cannot author");
}

#[test]
fn eligible_agents_of_an_escalation_have_every_required_tag() {
    let mut w = in_review();
    w.join(author("T").expert_in(&["typescript"]));
    w.join(author("U").expert_in(&["auth", "typescript"]));
    w.join(author("V").expert_in(&["auth", "typescript"]).retired());
    w.review(reject("Q").escalating(&["typescript", "auth"])).unwrap();
    assert_eq!(w.eligible(), ["U"]);
}

#[test]
fn eligible_agents_under_waza_leave_out_the_rejecting_reviewer() {
    let mut w = waza_in_review();
    w.review(reject("L")).unwrap();
    assert_eq!(w.eligible(), ["B", "C", "D"]);
}

#[test]
fn eligible_agents_of_a_deadlock_are_only_agents_who_joined_since() {
    let mut w = World::start(example_3_team(), standard(), by("A"));
    w.revise("Q", "B");
    w.revise("Q", "C");
    w.review(reject("Q")).unwrap();
    assert!(w.eligible().is_empty());
    w.join(author("D"));
    assert_eq!(w.eligible(), ["D"]);
}

#[test]
fn may_write_answers_as_a_version_by_that_agent_would() {
    let cases: [(World, &str, Result<(), Code>); 15] = [
        (in_review(), "A", Ok(())),
        (in_review(), "B", Err(Code::InvalidState)),
        (in_review(), "nobody", Err(Code::InvalidAgent)),
        (in_review(), "Q", Err(Code::InvalidAgent)),
        (changes_requested(), "A", Err(Code::AgentLockedOut)),
        (changes_requested(), "C", Err(Code::NotAssignee)),
        (in_revision(), "A", Err(Code::AgentLockedOut)),
        (in_revision(), "B", Ok(())),
        (in_revision(), "C", Err(Code::NotAssignee)),
        (approved(), "A", Ok(())),
        (approved(), "B", Ok(())),
        (deadlocked(), "A", Err(Code::AgentLockedOut)),
        (deadlocked(), "D", Err(Code::Deadlocked)),
        (abandoned(), "C", Err(Code::AgentLockedOut)),
        (abandoned(), "D", Err(Code::InvalidState)),
    ];
    for (w, agent, want) in cases {
        assert_eq!(w.may_write(agent), want, "{agent} in {}", w.state().as_str());
    }
}

// ---------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------

const ALL_CODES: [Code; 17] = [
    Code::NotAReviewer,
    Code::SelfReview,
    Code::StaleVersion,
    Code::StaleRef,
    Code::VersionDecided,
    Code::DuplicateReview,
    Code::LockedOutAgentNamed,
    Code::InvalidAgent,
    Code::AgentLockedOut,
    Code::ExpertiseMismatch,
    Code::InvalidState,
    Code::Deadlocked,
    Code::NotAssignee,
    Code::IncompleteRejection,
    Code::RejectingReviewerExcluded,
    Code::InvalidField,
    Code::NotFound,
];

/// Fails to compile when a code is added, so `ALL_CODES` (the codes the rules decide) and the
/// reachability test keep up.
#[allow(dead_code)]
fn every_code_is_listed(code: Code) {
    match code {
        Code::NotAReviewer
        | Code::SelfReview
        | Code::StaleVersion
        | Code::StaleRef
        | Code::VersionDecided
        | Code::DuplicateReview
        | Code::LockedOutAgentNamed
        | Code::InvalidAgent
        | Code::AgentLockedOut
        | Code::ExpertiseMismatch
        | Code::InvalidState
        | Code::Deadlocked
        | Code::NotAssignee
        | Code::IncompleteRejection
        | Code::RejectingReviewerExcluded
        | Code::InvalidField
        | Code::NotFound => {}
        // Not the rules' to decide.
        Code::ArtifactExists
        | Code::Conflict
        | Code::PreconditionFailed
        | Code::IdempotencyKeyReused
        | Code::IdempotencyKeyInFlight
        | Code::Unauthenticated
        | Code::Forbidden
        | Code::MalformedRequest
        | Code::MethodNotAllowed
        | Code::PayloadTooLarge
        | Code::UnsupportedMediaType
        | Code::RateLimited
        | Code::Unavailable
        | Code::Internal => {}
    }
}

#[test]
fn every_refusal_code_is_reachable() {
    let two_approvals = needing_approvals(Profile::Standard, 2);
    let reached: Vec<(Code, Result<(), Code>)> = vec![
        (Code::NotAReviewer, in_review().review(approve("B")).map(drop).code()),
        (
            Code::SelfReview,
            World::start(standard_team(), standard(), by("L")).review(approve("L")).map(drop).code(),
        ),
        (Code::StaleVersion, {
            let mut w = in_review();
            w.submit(by("A")).unwrap();
            w.review(approve("Q").of_version(1)).map(drop).code()
        }),
        (
            Code::StaleRef,
            World::start(standard_team(), standard(), by("A").at_ref("abc"))
                .review(approve("Q").at_ref("xyz"))
                .map(drop)
                .code(),
        ),
        (Code::VersionDecided, changes_requested().review(approve("R")).map(drop).code()),
        (Code::DuplicateReview, {
            let mut w = World::start(standard_team(), two_approvals, by("A"));
            w.review(approve("Q")).unwrap();
            w.review(approve("Q")).map(drop).code()
        }),
        (Code::LockedOutAgentNamed, in_review().review(reject("Q").naming("A")).map(drop).code()),
        (Code::InvalidAgent, changes_requested().assign("nobody").code()),
        (Code::AgentLockedOut, changes_requested().assign("A").code()),
        (Code::ExpertiseMismatch, {
            let mut w = in_review();
            w.review(reject("Q").escalating(&["typescript"])).unwrap();
            w.assign("B").code()
        }),
        (Code::InvalidState, in_review().assign("B").code()),
        (Code::Deadlocked, deadlocked().assign("D").code()),
        (Code::NotAssignee, in_revision().submit(by("C")).map(drop).code()),
        (Code::IncompleteRejection, waza_in_review().review(reject("Q").without_evidence()).map(drop).code()),
        (Code::RejectingReviewerExcluded, {
            let mut w = waza_in_review();
            w.review(reject("L")).unwrap();
            w.assign("L").code()
        }),
        (Code::InvalidField, in_review().review(reject("Q").with_reason(None)).map(drop).code()),
        (Code::NotFound, in_review().review(approve("Q").of_version(9)).map(drop).code()),
    ];
    for (want, got) in &reached {
        assert_eq!(*got, Err(*want));
    }
    let reached: HashSet<Code> = reached.into_iter().map(|(code, _)| code).collect();
    assert_eq!(reached, HashSet::from(ALL_CODES));
}

#[test]
fn every_code_has_a_distinct_snake_case_name() {
    let names: HashSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names.len(), Code::ALL.len());
    for code in Code::ALL {
        let name = code.as_str();
        assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{name}");
        assert_eq!(Code::parse(name), Some(*code));
    }
}

#[test]
fn state_names_round_trip() {
    for state in State::ALL {
        assert_eq!(State::parse(state.as_str()), Some(*state));
    }
    assert_eq!(State::parse("rejected"), None);
    let names: Vec<&str> = State::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        names,
        ["in_review", "changes_requested", "in_revision", "approved", "deadlocked", "abandoned"]
    );
}
