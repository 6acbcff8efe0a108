//! Every stable code a refusal carries: what a client branches on, in the protocol's words. The
//! HTTP status each answers with is the HTTP layer's business (`http::error`).

use super::words::words;

words! {
    /// A stable refusal code (PROTOCOL §4 and §5).
    pub enum Code {
        // Decided by the rules (`rules.rs`).
        NotAReviewer = "not_a_reviewer",
        SelfReview = "self_review",
        StaleVersion = "stale_version",
        StaleRef = "stale_ref",
        VersionDecided = "version_decided",
        DuplicateReview = "duplicate_review",
        LockedOutAgentNamed = "locked_out_agent_named",
        InvalidAgent = "invalid_agent",
        /// A path check: the file belongs to an artifact and the agent may not author.
        NotAnAuthor = "not_an_author",
        AgentLockedOut = "agent_locked_out",
        /// A path check: the file belongs to an artifact someone is locked out of, and the
        /// writer cannot be named (R16).
        UnknownWriter = "unknown_writer",
        ExpertiseMismatch = "expertise_mismatch",
        InvalidState = "invalid_state",
        Deadlocked = "deadlocked",
        NotAssignee = "not_assignee",
        IncompleteRejection = "incomplete_rejection",
        RejectingReviewerExcluded = "rejecting_reviewer_excluded",
        InvalidField = "invalid_field",
        NotFound = "not_found",
        // Decided by the use cases around the rules.
        /// An artifact with this key exists.
        ArtifactExists = "artifact_exists",
        /// An agent's id or alias already names another agent of the team.
        AliasTaken = "alias_taken",
        /// The request collided with a concurrent one and nothing was recorded; retry it.
        Conflict = "conflict",
        /// `If-Match` names another version of the artifact.
        PreconditionFailed = "precondition_failed",
        /// The `Idempotency-Key` was used for another request.
        IdempotencyKeyReused = "idempotency_key_reused",
        /// A request with this `Idempotency-Key` is still running.
        IdempotencyKeyInFlight = "idempotency_key_in_flight",
        // Decided before any use case runs.
        Unauthenticated = "unauthenticated",
        Forbidden = "forbidden",
        MalformedRequest = "malformed_request",
        MethodNotAllowed = "method_not_allowed",
        PayloadTooLarge = "payload_too_large",
        /// The request's body did not arrive within the body read timeout.
        RequestTimeout = "request_timeout",
        UnsupportedMediaType = "unsupported_media_type",
        RateLimited = "rate_limited",
        Unavailable = "unavailable",
        Internal = "internal",
    }
}
