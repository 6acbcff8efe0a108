//! How an [`Error`] is answered: the HTTP status of each stable code, and an RFC 9457
//! `application/problem+json` body.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::Code;
use crate::error::{Error, FieldError};
use crate::http::codes::status;

/// The `Retry-After` of a 503 `unavailable`, in seconds.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

/// An RFC 9457 problem document.
#[derive(Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the problem type: `urn:reviewlock:problem:<code>`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// The stable error code a client branches on.
    pub code: Code,
    /// For `invalid_field`: each field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<FieldError>>,
    /// The request's `x-request-id`, as in the logs: quote it when reporting a problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

tokio::task_local! {
    /// The id of the request being handled, set by the HTTP middleware for every request.
    pub static REQUEST_ID: String;
}

/// The cause of a 500, left in the response's extensions for the trace middleware to log.
#[derive(Debug, Clone)]
pub struct InternalCause(pub String);

/// The `code` of an error response, left in its extensions for the middleware to count as a
/// refusal (`reviewlock_refusals_total`). A replay carries none: it is not a refusal.
#[derive(Debug, Clone, Copy)]
pub struct ProblemCode(pub Code);

/// The error a bare status stands for, so that a response made without a body (by a layer,
/// or by a route such as `/docs/*`) can still be answered as problem+json with a code.
pub fn of_status(status: StatusCode) -> Option<Error> {
    Some(match status {
        StatusCode::BAD_REQUEST => Error::Malformed("the request cannot be read".into()),
        StatusCode::UNAUTHORIZED => Error::Unauthenticated,
        StatusCode::FORBIDDEN => Error::Forbidden("not allowed".into()),
        StatusCode::NOT_FOUND => Error::NotFound("no such resource".into()),
        StatusCode::METHOD_NOT_ALLOWED => {
            Error::refused(Code::MethodNotAllowed, "this route does not take this method")
        }
        StatusCode::REQUEST_TIMEOUT => Error::RequestTimeout,
        StatusCode::PAYLOAD_TOO_LARGE => Error::PayloadTooLarge(crate::http::extract::BODY_LIMIT),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Error::UnsupportedMediaType,
        StatusCode::SERVICE_UNAVAILABLE => Error::Unavailable,
        s if s.is_server_error() => Error::Internal(format!("a layer answered {s} without a body")),
        s if s.is_client_error() => Error::Malformed(format!("refused: {s}")),
        _ => return None,
    })
}

/// The problem document of an error.
pub fn problem(error: &Error) -> Problem {
    let code = error.code();
    let status = status(code);
    Problem {
        kind: format!("urn:reviewlock:problem:{code}"),
        title: status.canonical_reason().unwrap_or("Error").to_owned(),
        status: status.as_u16(),
        detail: error.to_string(),
        code,
        errors: match error {
            Error::InvalidFields(errors) => Some(errors.clone()),
            _ => None,
        },
        request_id: REQUEST_ID.try_with(Clone::clone).ok(),
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let problem = problem(&self);
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = (status(problem.code), body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        match &self {
            Error::Unauthenticated => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            Error::RateLimited { retry_after_secs } | Error::TooManyFailedLogins { retry_after_secs } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            }
            Error::IdempotencyKeyInFlight => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            // The rest of the body is not read: the connection cannot carry another request.
            Error::RequestTimeout => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            // Whatever made the database unreachable (a restart, a failover, a full pool) is
            // usually over within seconds: say when to come back rather than leave clients to
            // guess or to hammer.
            _ if problem.code == Code::Unavailable => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_AFTER_SECS));
            }
            _ => {}
        }
        response.extensions_mut().insert(ProblemCode(problem.code));
        if let Error::Internal(cause) = self {
            response.extensions_mut().insert(InternalCause(cause));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_refusals_are_409_and_shape_refusals_422() {
        let cases = [
            (Code::AgentLockedOut, 409),
            (Code::Deadlocked, 409),
            (Code::ArtifactExists, 409),
            (Code::IdempotencyKeyInFlight, 409),
            (Code::IncompleteRejection, 422),
            (Code::InvalidField, 422),
            (Code::IdempotencyKeyReused, 422),
            (Code::NotFound, 404),
            (Code::PreconditionFailed, 412),
            (Code::Unavailable, 503),
        ];
        for (code, want) in cases {
            assert_eq!(status(code).as_u16(), want, "{code}");
        }
    }
}
