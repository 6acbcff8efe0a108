//! R8–R10: how long lockouts last, deadlock, the user's way out.

use super::*;

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
