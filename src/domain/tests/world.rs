//! A world: one artifact of one team, changed only by accepted decisions.

use super::*;

/// One artifact and its team. Each action asks the rules and, when they accept, applies the
/// outcome as the service writes it; a refusal changes nothing.
#[derive(Debug, Clone)]
pub(super) struct World {
    pub(super) roster: Roster,
    pub(super) policy: Policy,
    pub(super) artifact: Artifact,
}

impl World {
    /// A new artifact with its first version, as `POST …/artifacts` writes it.
    pub(super) fn start(roster: Roster, policy: Policy, first: Submission) -> World {
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

    pub(super) fn submit(&mut self, submission: Submission) -> Decision<VersionKind> {
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

    pub(super) fn review(&mut self, review: Review) -> Decision<ReviewOutcome> {
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

    pub(super) fn assign(&mut self, agent: &str) -> Decision<()> {
        decide_assignment(&self.artifact, &self.roster, self.policy, agent)?;
        self.artifact.assignee = Some(agent.to_owned());
        self.artifact.state = State::InRevision;
        Ok(())
    }

    pub(super) fn release(&mut self) -> Decision<String> {
        let released = decide_release(&self.artifact)?;
        self.artifact.assignee = None;
        self.artifact.state = State::ChangesRequested;
        Ok(released)
    }

    pub(super) fn resolve(&mut self, resolution: Resolution) -> Decision<State> {
        let next = decide_resolution(&self.artifact, &self.roster, self.policy, resolution)?;
        if let Resolution::Assign(agent) = resolution {
            self.artifact.assignee = Some(agent.to_owned());
        }
        self.artifact.state = next;
        Ok(next)
    }

    pub(super) fn lift(&mut self, agent: &str) -> Decision<()> {
        decide_lift(&self.artifact, agent)?;
        self.artifact.lockouts.remove(agent);
        Ok(())
    }

    /// The coordinator adds an agent to the team (or updates it).
    pub(super) fn join(&mut self, agent: Agent) {
        self.roster.0.insert(agent.id.clone(), agent);
    }

    /// One revision round: `reviewer` rejects the current version (reassign), `reviser` is
    /// assigned and writes the next version.
    pub(super) fn revise(&mut self, reviewer: &str, reviser: &str) {
        self.review(reject(reviewer)).expect("the rejection");
        self.assign(reviser).expect("the assignment");
        self.submit(by(reviser)).expect("the revision");
    }

    pub(super) fn may_write(&self, agent: &str) -> Result<(), Code> {
        decide_write(&self.artifact, &self.roster, self.policy, agent).code()
    }

    pub(super) fn eligible(&self) -> Vec<String> {
        eligible_agents(&self.artifact, &self.roster, self.policy)
    }

    pub(super) fn state(&self) -> State {
        self.artifact.state
    }

    pub(super) fn lockouts(&self) -> Vec<&str> {
        self.artifact.lockouts.iter().map(String::as_str).collect()
    }

    pub(super) fn version(&self) -> i32 {
        self.artifact.current.number
    }

    pub(super) fn cycle(&self) -> i32 {
        self.artifact.cycle
    }
}

pub(super) trait Coded<T> {
    /// The outcome, or the refusal's stable code.
    fn code(self) -> Result<T, Code>;
}

impl<T> Coded<T> for Decision<T> {
    fn code(self) -> Result<T, Code> {
        self.map_err(|refusal| refusal.code)
    }
}

/// The field an `invalid_field` refusal points at.
pub(super) fn refused_field<T: std::fmt::Debug>(decision: Decision<T>) -> &'static str {
    match decision {
        Err(Refusal { code: Code::InvalidField, field: Some(field), .. }) => field,
        other => panic!("expected an invalid_field refusal, got {other:?}"),
    }
}

pub(super) fn new_lockouts(outcome: &ReviewOutcome) -> Vec<&str> {
    match &outcome.result {
        ReviewResult::Rejected { lockouts, .. } => lockouts.iter().map(String::as_str).collect(),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

pub(super) fn pending(outcome: &ReviewOutcome) -> &PendingRemedy {
    match &outcome.result {
        ReviewResult::Rejected { pending, .. } => pending,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

pub(super) fn deadlocks(outcome: &ReviewOutcome) -> bool {
    match &outcome.result {
        ReviewResult::Rejected { deadlocked, .. } => *deadlocked,
        other => panic!("expected a rejection, got {other:?}"),
    }
}
