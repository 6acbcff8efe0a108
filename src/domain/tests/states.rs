//! PROTOCOL §3: every state × action.

use super::*;

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
