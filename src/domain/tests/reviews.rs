//! R1–R4: who may judge, what a verdict binds to, what a rejection does.

use super::*;

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
                agent: Some(AgentId::unchecked("C")),
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
