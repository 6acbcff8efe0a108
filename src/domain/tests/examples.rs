//! PROTOCOL §6: the seed's examples.

use super::*;

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
