//! Every stable refusal code in one table: the HTTP status it answers with, what it means, and a
//! realistic `detail` for the spec's examples. The spec's error responses (`spec.rs`), the
//! problem documents (`error.rs`), `docs/errors.md` and the MCP tools' refusals are read from it;
//! adding a code to `domain::Code` fails to compile until it has its row here.

use axum::http::StatusCode;

use crate::domain::Code;

macro_rules! table {
    ($($code:ident => $status:ident, $meaning:literal, $example:literal;)*) => {
        /// The HTTP status each code answers with: rule refusals are 409, shape refusals 422
        /// (PROTOCOL §5).
        pub fn status(code: Code) -> StatusCode {
            match code {
                $(Code::$code => StatusCode::$status,)*
            }
        }

        /// When the code is answered, in a sentence.
        pub fn meaning(code: Code) -> &'static str {
            match code {
                $(Code::$code => $meaning,)*
            }
        }

        /// A realistic `detail`, for the spec's examples.
        pub fn example_detail(code: Code) -> &'static str {
            match code {
                $(Code::$code => $example,)*
            }
        }
    };
}

table! {
    // code => status, meaning, example detail;
    NotAReviewer => CONFLICT,
        "the reviewer is not an active agent with `can_review` (R1)",
        "'runtime-eng' may not review (can_review is false)";
    SelfReview => CONFLICT,
        "the reviewer is credited on the version (R1)",
        "'quality-reviewer' is credited on version 1 and may not review it";
    StaleVersion => CONFLICT,
        "the version is not the artifact's current one (R2)",
        "version 1 is not the current version (2)";
    StaleRef => CONFLICT,
        "`ref` differs from the version's (R2)",
        "ref '3f2a9c0' differs from version 1's ref '3f2a9c1'";
    VersionDecided => CONFLICT,
        "the version was already rejected, or approved with enough approvals (R2)",
        "version 1 was already rejected";
    DuplicateReview => CONFLICT,
        "this reviewer already gave a verdict on this version (R2)",
        "this reviewer already gave a verdict on this version";
    LockedOutAgentNamed => CONFLICT,
        "the rejection names a locked-out agent as `remedy.agent`: name another (R4)",
        "'runtime-eng' is locked out of 'auth': name a different agent";
    InvalidAgent => CONFLICT,
        "the agent is unknown, inactive or may not author",
        "agent 'ghost' does not exist in team 'acme'";
    NotAnAuthor => CONFLICT,
        "a path check: the file belongs to an artifact and the agent may not author",
        "'src/auth/login.rs' belongs to artifact 'auth', and agent 'quality-reviewer' may not author";
    AgentLockedOut => CONFLICT,
        "the agent is locked out of this artifact (R5, R6)",
        "'runtime-eng' (author) is locked out of 'auth' since version 1 was rejected";
    UnknownWriter => CONFLICT,
        "a check whose writer names no agent, of a file an active lockout covers (R16): name the agent",
        "reviewlock cannot tell which agent is writing 'src/auth/login.rs', which is locked for runtime-eng";
    ExpertiseMismatch => CONFLICT,
        "the agent lacks an expertise the `escalate` remedy requires (R5)",
        "'revision-eng' lacks the expertise the remedy requires: typescript";
    InvalidState => CONFLICT,
        "the artifact is not in a state that allows this",
        "'auth' is approved, not changes_requested";
    Deadlocked => CONFLICT,
        "the artifact is deadlocked: only the user's resolution moves it (R9)",
        "'billing' is deadlocked: the user resolves it";
    NotAssignee => CONFLICT,
        "only the assigned agent may write the revision (R6)",
        "'quality-eng' is not the assignee of 'auth' ('revision-eng' is)";
    IncompleteRejection => UNPROCESSABLE_ENTITY,
        "under the waza profile a rejection needs all four `evidence` fields (R11)",
        "a rejection under the waza profile needs evidence.counter_evidence";
    RejectingReviewerExcluded => CONFLICT,
        "the reviewer who rejected may not take the immediate revision (R11)",
        "'lead' rejected version 1 and may not write version 2";
    InvalidField => UNPROCESSABLE_ENTITY,
        "a field is missing, unknown, of the wrong type or out of range: see `errors`",
        "the request has invalid fields: remedy.agent";
    NotFound => NOT_FOUND,
        "no such team or resource (another team's resources look the same)",
        "artifact 'auth' does not exist in team 'acme'";
    AliasTaken => CONFLICT,
        "an alias, or the agent's id, already names another agent of the team (R16)",
        "'general-purpose' already names agent 'runtime-eng' in team 'acme'";
    ArtifactExists => CONFLICT,
        "an artifact with this key exists",
        "an artifact with key 'auth' exists in team 'acme'";
    Conflict => CONFLICT,
        "the request collided with a concurrent one and nothing was recorded: retry it",
        "the request collided with a concurrent one; retry";
    PreconditionFailed => PRECONDITION_FAILED,
        "`If-Match` does not match the artifact's ETag: read it again",
        "If-Match \"3.7\" does not match the artifact's ETag \"4.7\"";
    IdempotencyKeyReused => UNPROCESSABLE_ENTITY,
        "the `Idempotency-Key` was used for a different request",
        "this Idempotency-Key was used for a different request (method, path or body)";
    IdempotencyKeyInFlight => CONFLICT,
        "a request with this `Idempotency-Key` is still running: retry after `Retry-After`",
        "a request with this Idempotency-Key is still running; retry after Retry-After";
    Unauthenticated => UNAUTHORIZED,
        "no valid bearer token",
        "a bearer token is required";
    Forbidden => FORBIDDEN,
        "the token's scope does not allow this",
        "this token's scope (read) does not allow this";
    MalformedRequest => BAD_REQUEST,
        "the body is not JSON, or a path or query parameter cannot be read",
        "the body is not valid JSON: expected value at line 1 column 1";
    MethodNotAllowed => METHOD_NOT_ALLOWED,
        "the route does not take this method",
        "this route does not take this method";
    PayloadTooLarge => PAYLOAD_TOO_LARGE,
        "the body is over 256 KiB",
        "the request body is larger than 262144 bytes";
    RequestTimeout => REQUEST_TIMEOUT,
        "the body did not arrive within the body read timeout",
        "the request body did not arrive in time; send a request's body as soon as its headers";
    UnsupportedMediaType => UNSUPPORTED_MEDIA_TYPE,
        "the body is not sent as `application/json`",
        "the body must be sent as application/json";
    RateLimited => TOO_MANY_REQUESTS,
        "over this token's rate limit, or this address sent too many unknown tokens: retry after `Retry-After` seconds",
        "over this token's rate limit; retry after Retry-After seconds";
    Unavailable => SERVICE_UNAVAILABLE,
        "the database is unreachable or the request timed out: retry after `Retry-After` seconds",
        "the database is unavailable; retry after Retry-After seconds";
    Internal => INTERNAL_SERVER_ERROR,
        "an unexpected error; the cause is logged, never returned",
        "internal error";
}

/// `docs/errors.md`: every code with its status and meaning.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Error codes\n\nEvery refusal is an RFC 9457 `application/problem+json` document whose `code` is one of \
         these; branch on it, not on the status or the text. Generated from `src/http/codes.rs` (a test fails \
         when this file is stale; `REVIEWLOCK_WRITE_DOCS=1 cargo test --lib codes` rewrites it).\n\n\
         | code | status | when |\n|---|---|---|\n",
    );
    for &code in Code::ALL {
        let status = status(code);
        out += &format!(
            "| `{code}` | {} {} | {} |\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            meaning(code)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_list_every_code_as_the_table_says() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/errors.md");
        let want = markdown();
        if std::env::var_os("REVIEWLOCK_WRITE_DOCS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/errors.md is stale: rewrite it with `REVIEWLOCK_WRITE_DOCS=1 cargo test --lib codes`"
        );
    }
}
