//! Every refusal code is reachable.

use std::collections::HashSet;

use super::*;

// ---------------------------------------------------------------------------------------------
// Codes
// ---------------------------------------------------------------------------------------------

const ALL_CODES: [Code; 19] = [
    Code::NotAReviewer,
    Code::SelfReview,
    Code::StaleVersion,
    Code::StaleRef,
    Code::VersionDecided,
    Code::DuplicateReview,
    Code::LockedOutAgentNamed,
    Code::InvalidAgent,
    Code::NotAnAuthor,
    Code::AgentLockedOut,
    Code::UnknownWriter,
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
        | Code::NotAnAuthor
        | Code::AgentLockedOut
        | Code::UnknownWriter
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
        | Code::AliasTaken
        | Code::Conflict
        | Code::PreconditionFailed
        | Code::IdempotencyKeyReused
        | Code::IdempotencyKeyInFlight
        | Code::Unauthenticated
        | Code::Forbidden
        | Code::MalformedRequest
        | Code::MethodNotAllowed
        | Code::PayloadTooLarge
        | Code::RequestTimeout
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
        (Code::NotAnAuthor, Err(covered_file(&reviewer("Q"), "auth", "src/auth.rs").code)),
        (Code::UnknownWriter, Err(unnamed_writer("auth", Some("src/auth.rs"), &["A".into()]).code)),
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
