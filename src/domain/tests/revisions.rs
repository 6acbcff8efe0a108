//! R5–R7: who may write the revision.

use super::*;

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
