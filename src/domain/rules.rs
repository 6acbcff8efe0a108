//! One decision per use case: the loaded state and the request in, the outcome or a refusal out.
//! The rule numbers are PROTOCOL §4's. One file on purpose, past the 450 lines others keep to: a
//! reader finds why anything is refused in one place.

use std::collections::BTreeSet;

use super::*;

/// A version's credits as submitted.
#[derive(Debug, Clone, Copy)]
pub struct Credits<'a> {
    pub author: &'a str,
    pub contributors: &'a [Contributor],
}

/// How a new version relates to the artifact's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionKind {
    /// Version 1 of a new artifact.
    First,
    /// The author of the version under review replaces it.
    Supersede,
    /// The assignee writes the revision after a rejection.
    Revision,
    /// A version after approval: a new revision cycle starts.
    NewCycle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionOutcome {
    pub number: i32,
    pub cycle: i32,
    pub kind: VersionKind,
}

/// R6 for the first version of a new artifact: every credited agent must be able to act.
pub fn decide_first_version(roster: &Roster, credits: Credits) -> Decision<()> {
    check_credits(roster, credits)
}

/// R5, R6, R11 and §3: may these credits write the next version of this artifact?
pub fn decide_version(
    artifact: &Artifact,
    roster: &Roster,
    policy: Policy,
    credits: Credits,
) -> Decision<VersionOutcome> {
    check_credits(roster, credits)?;
    // R6: no locked-out agent is credited, in any role.
    if artifact.lockouts.contains(credits.author) {
        return Err(locked_out(credits.author, "author"));
    }
    for c in credits.contributors {
        if artifact.lockouts.contains(c.agent.as_str()) {
            return Err(locked_out(&c.agent, c.role.as_str()));
        }
    }
    // R11: under waza the rejecting reviewer takes no part in the immediate revision.
    if let Some(reviewer) = excluded_reviewer(artifact, policy)
        && (credits.author == reviewer || credits.contributors.iter().any(|c| c.agent == *reviewer))
    {
        return Err(Refusal::new(
            Code::RejectingReviewerExcluded,
            format!(
                "agent '{reviewer}' rejected the previous version and may not be credited on its revision"
            ),
        ));
    }
    let next = |kind, cycle| Ok(VersionOutcome { number: artifact.current.number + 1, cycle, kind });
    match artifact.state {
        State::InReview if credits.author == artifact.current.author => {
            next(VersionKind::Supersede, artifact.cycle)
        }
        State::InReview => Err(Refusal::new(
            Code::InvalidState,
            format!(
                "version {} is under review; only its author '{}' may supersede it",
                artifact.current.number, artifact.current.author
            ),
        )),
        // R5: a revision needs a verified assignment first.
        State::ChangesRequested => Err(Refusal::new(
            Code::NotAssignee,
            "the current version was rejected and no reviser is assigned yet; assign one first",
        )),
        State::InRevision => match &artifact.assignee {
            Some(assignee) if assignee == credits.author => next(VersionKind::Revision, artifact.cycle),
            assignee => Err(Refusal::new(
                Code::NotAssignee,
                format!(
                    "only the assigned agent '{}' may write the revision",
                    assignee.as_deref().unwrap_or_default()
                ),
            )),
        },
        State::Approved => next(VersionKind::NewCycle, artifact.cycle + 1),
        State::Deadlocked => Err(deadlocked(artifact)),
        State::Abandoned => Err(abandoned()),
    }
}

/// The grounds of a waza rejection (R11): all four are required under that profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    pub counter_evidence: Option<String>,
    pub violated_requirement: Option<String>,
    pub affected_scope: Option<String>,
    pub approval_condition: Option<String>,
}

#[derive(Debug, Clone, Copy)]
pub struct ReviewRequest<'a> {
    pub reviewer: &'a str,
    pub version: i32,
    pub verdict: Verdict,
    pub git_ref: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub remedy: Option<&'a Remedy>,
    pub evidence: Option<&'a Evidence>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewResult {
    /// An approval short of `required_approvals`: the version stays in review.
    ApprovalRecorded { approvals: u32, required: u32 },
    /// The version passed: the cycle ends and every lockout clears (R8).
    Approved,
    /// The version is rejected: `lockouts` are the credited agents newly locked out (R3).
    Rejected { lockouts: Vec<String>, pending: PendingRemedy, deadlocked: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewOutcome {
    pub kind: ReviewKind,
    pub result: ReviewResult,
}

impl ReviewOutcome {
    pub fn next_state(&self) -> State {
        match self.result {
            ReviewResult::ApprovalRecorded { .. } => State::InReview,
            ReviewResult::Approved => State::Approved,
            ReviewResult::Rejected { deadlocked: true, .. } => State::Deadlocked,
            ReviewResult::Rejected { deadlocked: false, .. } => State::ChangesRequested,
        }
    }
}

/// R1–R4, R9, R11: record a verdict on a version.
pub fn decide_review(
    artifact: &Artifact,
    roster: &Roster,
    policy: Policy,
    review: ReviewRequest,
) -> Decision<ReviewOutcome> {
    // R1: only active reviewers judge.
    match roster.get(review.reviewer) {
        Some(a) if a.active && a.can_review => {}
        _ => {
            return Err(Refusal::new(
                Code::NotAReviewer,
                format!("agent '{}' is not an active reviewer of this team", review.reviewer),
            ));
        }
    }
    // R2: a verdict binds to the current version, as submitted, while it is undecided.
    let current = &artifact.current;
    if review.version > current.number || review.version < 1 {
        return Err(Refusal::new(Code::NotFound, format!("version {} does not exist", review.version)));
    }
    if review.version < current.number {
        return Err(Refusal::new(
            Code::StaleVersion,
            format!("version {} is not the current version ({})", review.version, current.number),
        ));
    }
    if let Some(r) = review.git_ref
        && current.git_ref.as_deref() != Some(r)
    {
        return Err(Refusal::new(
            Code::StaleRef,
            format!("ref '{r}' is not the ref of version {}", current.number),
        ));
    }
    if artifact.state != State::InReview {
        return Err(Refusal::new(
            Code::VersionDecided,
            format!("version {} is already decided ({})", current.number, artifact.state.as_str()),
        ));
    }
    // R1: never one's own work.
    if current.is_credited(review.reviewer) {
        return Err(Refusal::new(
            Code::SelfReview,
            format!(
                "agent '{}' is credited on version {} and may not judge it",
                review.reviewer, current.number
            ),
        ));
    }
    if current.has_reviewed(review.reviewer) {
        return Err(Refusal::new(
            Code::DuplicateReview,
            format!("agent '{}' already gave a verdict on version {}", review.reviewer, current.number),
        ));
    }
    // R11: the focused re-review is a waza notion; under standard every review is a review.
    let kind = if policy.profile == Profile::Waza && artifact.cycle_rejecters.contains(review.reviewer) {
        ReviewKind::FocusedRereview
    } else {
        ReviewKind::Review
    };
    let result = match review.verdict {
        Verdict::Approve => {
            if review.remedy.is_some() {
                return Err(Refusal::field("remedy", "an approval carries no remedy"));
            }
            let approvals = current.approvals.len() as u32 + 1;
            if approvals >= policy.required_approvals {
                ReviewResult::Approved
            } else {
                ReviewResult::ApprovalRecorded { approvals, required: policy.required_approvals }
            }
        }
        Verdict::Reject => decide_rejection(artifact, roster, policy, review)?,
    };
    Ok(ReviewOutcome { kind, result })
}

fn decide_rejection(
    artifact: &Artifact,
    roster: &Roster,
    policy: Policy,
    review: ReviewRequest,
) -> Decision<ReviewResult> {
    // R3: a rejection says why and what to do.
    let reason = review.reason.map(str::trim).filter(|r| !r.is_empty());
    let Some(reason) = reason else {
        return Err(Refusal::field("reason", "a rejection must carry a reason"));
    };
    let Some(remedy) = review.remedy else {
        return Err(Refusal::field("remedy", "a rejection must carry a remedy: reassign or escalate"));
    };
    if remedy.action == RemedyAction::Escalate && remedy.expertise.is_empty() {
        return Err(Refusal::field("remedy.expertise", "an escalation names the expertise it needs"));
    }
    // R11: a waza rejection is grounded.
    if policy.profile == Profile::Waza {
        let e = review.evidence.cloned().unwrap_or_default();
        let missing: Vec<&str> = [
            ("counter_evidence", &e.counter_evidence),
            ("violated_requirement", &e.violated_requirement),
            ("affected_scope", &e.affected_scope),
            ("approval_condition", &e.approval_condition),
        ]
        .into_iter()
        .filter(|(_, v)| v.as_deref().is_none_or(|v| v.trim().is_empty()))
        .map(|(name, _)| name)
        .collect();
        if !missing.is_empty() {
            return Err(Refusal::new(
                Code::IncompleteRejection,
                format!("a waza rejection must carry evidence; missing: {}", missing.join(", ")),
            ));
        }
    }
    // R3: everyone credited on the rejected version is locked out.
    let lockouts: Vec<String> =
        artifact.current.credited().filter(|a| !artifact.lockouts.contains(*a)).map(str::to_owned).collect();
    let locked = |agent: &str| artifact.lockouts.contains(agent) || lockouts.iter().any(|l| l == agent);
    let excluded = (policy.profile == Profile::Waza).then_some(review.reviewer);
    if let Some(named) = &remedy.agent {
        // R4: the reviewer cannot name a locked-out agent, the author just rejected included.
        if locked(named) {
            return Err(Refusal::new(
                Code::LockedOutAgentNamed,
                format!("agent '{named}' is locked out of this artifact; name a different agent"),
            ));
        }
        if !roster.get(named).is_some_and(|a| a.active && a.can_author) {
            return Err(invalid_agent(named));
        }
        if excluded == Some(named.as_str()) {
            return Err(Refusal::new(
                Code::RejectingReviewerExcluded,
                format!("agent '{named}' rejects this version and may not revise it"),
            ));
        }
        if remedy.action == RemedyAction::Escalate {
            lacks_expertise(roster, named, &remedy.expertise)?;
        }
    }
    // R9: a reassignment with nobody left to assign goes to the user.
    let deadlocked = remedy.action == RemedyAction::Reassign
        && !roster.authors().any(|a| !locked(&a.id) && excluded != Some(a.id.as_str()));
    Ok(ReviewResult::Rejected {
        lockouts,
        pending: PendingRemedy {
            remedy: remedy.clone(),
            reviewer: review.reviewer.to_owned(),
            reason: reason.to_owned(),
        },
        deadlocked,
    })
}

/// R5: may this agent be assigned to write the revision?
pub fn decide_assignment(artifact: &Artifact, roster: &Roster, policy: Policy, agent: &str) -> Decision<()> {
    match artifact.state {
        State::ChangesRequested => {}
        State::Deadlocked => return Err(deadlocked(artifact)),
        state => {
            return Err(Refusal::new(
                Code::InvalidState,
                format!(
                    "an assignment needs a rejected version awaiting a reviser; the artifact is {}",
                    state.as_str()
                ),
            ));
        }
    }
    check_assignee(artifact, roster, policy, agent)
}

/// Release the active assignment: back to `changes_requested`. Returns the released agent.
pub fn decide_release(artifact: &Artifact) -> Decision<String> {
    match (&artifact.state, &artifact.assignee) {
        (State::InRevision, Some(agent)) => Ok(agent.clone()),
        (state, _) => Err(Refusal::new(
            Code::InvalidState,
            format!("there is no active assignment to release; the artifact is {}", state.as_str()),
        )),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution<'a> {
    Assign(&'a str),
    Abandon,
}

/// R9: the user resolves a deadlock by assigning an agent who is not locked out, or abandons.
pub fn decide_resolution(
    artifact: &Artifact,
    roster: &Roster,
    policy: Policy,
    resolution: Resolution,
) -> Decision<State> {
    if artifact.state != State::Deadlocked {
        return Err(Refusal::new(
            Code::InvalidState,
            format!("only a deadlocked artifact is resolved; this one is {}", artifact.state.as_str()),
        ));
    }
    match resolution {
        Resolution::Assign(agent) => {
            check_assignee(artifact, roster, policy, agent)?;
            Ok(State::InRevision)
        }
        Resolution::Abandon => Ok(State::Abandoned),
    }
}

/// R10: the user lifts one agent's lockout early.
pub fn decide_lift(artifact: &Artifact, agent: &str) -> Decision<()> {
    if artifact.state == State::Abandoned {
        return Err(abandoned());
    }
    if !artifact.lockouts.contains(agent) {
        return Err(Refusal::new(
            Code::NotFound,
            format!("agent '{agent}' has no active lockout on this artifact"),
        ));
    }
    Ok(())
}

/// Agents who may be assigned the revision after a rejection: active authors neither locked out
/// nor excluded, with the expertise an escalation asks for. None while no revision is pending.
pub fn eligible_agents(artifact: &Artifact, roster: &Roster, policy: Policy) -> Vec<String> {
    if !matches!(artifact.state, State::ChangesRequested | State::InRevision | State::Deadlocked) {
        return vec![];
    }
    roster
        .authors()
        .filter(|a| check_assignee(artifact, roster, policy, &a.id).is_ok())
        .map(|a| a.id.clone())
        .collect()
}

/// The checks of an agent about to write: would a version it authors be accepted now?
pub fn decide_write(artifact: &Artifact, roster: &Roster, policy: Policy, agent: &str) -> Decision<()> {
    decide_version(artifact, roster, policy, Credits { author: agent, contributors: &[] }).map(|_| ())
}

/// The rejecting reviewer under waza, while the revision it asked for is pending (R11).
fn excluded_reviewer(artifact: &Artifact, policy: Policy) -> Option<&str> {
    let pending = matches!(artifact.state, State::ChangesRequested | State::InRevision | State::Deadlocked);
    match (&artifact.pending_remedy, policy.profile, pending) {
        (Some(p), Profile::Waza, true) => Some(&p.reviewer),
        _ => None,
    }
}

fn check_assignee(artifact: &Artifact, roster: &Roster, policy: Policy, agent: &str) -> Decision<()> {
    if !roster.get(agent).is_some_and(|a| a.active && a.can_author) {
        return Err(invalid_agent(agent));
    }
    if artifact.lockouts.contains(agent) {
        return Err(locked_out(agent, "assignee"));
    }
    if excluded_reviewer(artifact, policy) == Some(agent) {
        return Err(Refusal::new(
            Code::RejectingReviewerExcluded,
            format!("agent '{agent}' rejected the previous version and may not revise it"),
        ));
    }
    if let Some(p) = &artifact.pending_remedy
        && p.remedy.action == RemedyAction::Escalate
    {
        lacks_expertise(roster, agent, &p.remedy.expertise)?;
    }
    Ok(())
}

/// May this agent write at all: is it an active agent of the team that may author?
pub fn decide_author(agent: Option<&Agent>, id: &str) -> Decision<()> {
    if agent.is_some_and(|a| a.active && a.can_author) { Ok(()) } else { Err(invalid_agent(id)) }
}

/// R6, R15: why an active agent may not write `path`, a file that `artifact`'s globs cover and
/// that a check found it may not write: it may not author at all (a reviewer or tester may write
/// files no artifact covers, but a covered file is a version of that artifact), or it is locked
/// out of that artifact.
pub fn covered_file(agent: &Agent, artifact: &str, path: &str) -> Refusal {
    if agent.can_author {
        Refusal::new(
            Code::AgentLockedOut,
            format!(
                "'{path}' belongs to artifact '{artifact}', which agent '{}' is locked out of until a revision is approved",
                agent.id
            ),
        )
    } else {
        Refusal::new(
            Code::NotAnAuthor,
            format!(
                "'{path}' belongs to artifact '{artifact}', and agent '{}' may not author (can_author is false)",
                agent.id
            ),
        )
    }
}

/// R16: why a writer that names no agent may not write `artifact`, or `path`, a file its globs
/// cover, when the agents `locked` are locked out of it: the writer may be one of them.
pub fn unnamed_writer(artifact: &str, path: Option<&str>, locked: &[String]) -> Refusal {
    let what = match path {
        Some(path) => format!("'{path}', which belongs to artifact '{artifact}' and"),
        None => format!("artifact '{artifact}', which"),
    };
    Refusal::new(
        Code::UnknownWriter,
        format!(
            "reviewlock cannot tell which agent is writing {what} is locked for {}: name the writing agent \
             (REVIEWLOCK_AGENT, an agent token, or the subagent's name as one of the agent's roster aliases)",
            locked.join(", ")
        ),
    )
}

/// Every credited agent exists and is active, the author may author, and nobody is credited twice.
fn check_credits(roster: &Roster, credits: Credits) -> Decision<()> {
    decide_author(roster.get(credits.author), credits.author)?;
    let mut seen = BTreeSet::from([credits.author]);
    for c in credits.contributors {
        if !seen.insert(c.agent.as_str()) {
            return Err(Refusal::field(
                "contributors",
                format!("agent '{}' is credited more than once", c.agent),
            ));
        }
        if !roster.get(&c.agent).is_some_and(|a| a.active) {
            return Err(Refusal::new(
                Code::InvalidAgent,
                format!("contributor '{}' is not an active agent of this team", c.agent),
            ));
        }
    }
    Ok(())
}

fn lacks_expertise(roster: &Roster, agent: &str, needed: &[String]) -> Decision<()> {
    let has = roster.get(agent).map(|a| &a.expertise);
    let missing: Vec<&str> =
        needed.iter().filter(|tag| !has.is_some_and(|e| e.contains(*tag))).map(String::as_str).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Refusal::new(
            Code::ExpertiseMismatch,
            format!("agent '{agent}' lacks the expertise the escalation asks for: {}", missing.join(", ")),
        ))
    }
}

fn invalid_agent(agent: &str) -> Refusal {
    Refusal::new(
        Code::InvalidAgent,
        format!("agent '{agent}' is not an active agent of this team that may author"),
    )
}

fn locked_out(agent: &str, role: &str) -> Refusal {
    Refusal::new(
        Code::AgentLockedOut,
        format!("agent '{agent}' ({role}) is locked out of this artifact until a revision is approved"),
    )
}

/// R9. What was true at the rejection (nobody was left to revise) need not be now: an agent may
/// have joined or a lockout been lifted since. What stays true is that only the user reopens it.
fn deadlocked(artifact: &Artifact) -> Refusal {
    let since = if artifact.lockouts.is_empty() {
        "; its lockouts have since been lifted, but it stays deadlocked until the user resolves it"
    } else {
        ""
    };
    Refusal::new(
        Code::Deadlocked,
        format!(
            "the artifact is deadlocked: its last rejection left no agent to revise it{since}; the user resolves it by assigning an agent or abandoning it"
        ),
    )
}

fn abandoned() -> Refusal {
    Refusal::new(Code::InvalidState, "the artifact is abandoned")
}
