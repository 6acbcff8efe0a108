//! R11: policy profiles and required approvals.

use super::*;

// ---------------------------------------------------------------------------------------------
// R11: policy profiles — waza
// ---------------------------------------------------------------------------------------------

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
