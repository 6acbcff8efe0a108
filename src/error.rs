//! One error type for the whole service, answered as RFC 9457 `application/problem+json`.
//!
//! Refusals carry a stable `code`; internal causes become a bare 500 `internal` whose cause is
//! logged once by the trace middleware (see [`InternalCause`]) and never echoed.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{Code, Refusal};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("a valid bearer token is required")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Malformed(String),
    #[error("the request has invalid fields")]
    InvalidFields(Vec<FieldError>),
    #[error("the request body is larger than {0} bytes")]
    PayloadTooLarge(usize),
    #[error("the request body must be application/json")]
    UnsupportedMediaType,
    /// A refusal with a stable code: the protocol's rules, or a conflict like `artifact_exists`.
    #[error("{detail}")]
    Refused { status: StatusCode, code: &'static str, detail: String },
    #[error("the database is unavailable; retry shortly")]
    Unavailable,
    /// This token sent more requests than its rate limit allows; answered with `Retry-After`.
    #[error("this token sent too many requests; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// A request with the same `Idempotency-Key` is running now; answered with `Retry-After`.
    #[error(
        "a request with this Idempotency-Key is in progress; retry it after Retry-After seconds to get its response"
    )]
    IdempotencyKeyInFlight,
    /// Not a failure: the stored response of an earlier request with the same
    /// `Idempotency-Key`, answered again with `Idempotency-Replayed: true`.
    #[error("replayed")]
    Replayed { status: StatusCode, body: Vec<u8> },
    #[error("internal error")]
    Internal(String),
}

/// One field at fault in a 422 `invalid_field`.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path in the request, e.g. `remedy.agent` or `contributors[1].role`.
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

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
    #[schema(example = "agent_locked_out")]
    pub code: String,
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
pub struct ProblemCode(pub &'static str);

impl Error {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidFields(vec![FieldError::new(field, message)])
    }

    pub fn refused(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        Error::Refused { status, code, detail: detail.into() }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Error::Unauthenticated => StatusCode::UNAUTHORIZED,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Malformed(_) => StatusCode::BAD_REQUEST,
            Error::InvalidFields(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::Refused { status, .. } => *status,
            Error::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::IdempotencyKeyInFlight => StatusCode::CONFLICT,
            Error::Replayed { status, .. } => *status,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Error::Unauthenticated => "unauthenticated",
            Error::Forbidden(_) => "forbidden",
            Error::NotFound(_) => "not_found",
            Error::Malformed(_) => "malformed_request",
            Error::InvalidFields(_) => "invalid_field",
            Error::PayloadTooLarge(_) => "payload_too_large",
            Error::UnsupportedMediaType => "unsupported_media_type",
            Error::Refused { code, .. } => code,
            Error::Unavailable => "unavailable",
            Error::RateLimited { .. } => "rate_limited",
            Error::IdempotencyKeyInFlight => "idempotency_key_in_flight",
            Error::Replayed { .. } => "replayed",
            Error::Internal(_) => "internal",
        }
    }

    pub fn problem(&self) -> Problem {
        let status = self.status();
        let code = self.code();
        Problem {
            kind: format!("urn:reviewlock:problem:{code}"),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail: self.to_string(),
            code: code.to_owned(),
            errors: match self {
                Error::InvalidFields(errors) => Some(errors.clone()),
                _ => None,
            },
            request_id: REQUEST_ID.try_with(Clone::clone).ok(),
        }
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        match (r.code, r.field) {
            (Code::InvalidField, Some(field)) => Error::invalid(field, r.detail),
            (Code::NotFound, _) => Error::NotFound(r.detail),
            (code, _) => Error::Refused {
                status: StatusCode::from_u16(code.status()).unwrap_or(StatusCode::CONFLICT),
                code: code.as_str(),
                detail: r.detail,
            },
        }
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_) => Error::Unavailable,
            sqlx::Error::Database(db) if is_unavailable(db.code().as_deref()) => Error::Unavailable,
            // A NUL in a path or query parameter reaches Postgres, which cannot store it: the
            // request is unreadable (400), not a server failure.
            sqlx::Error::Database(db) if db.code().as_deref() == Some("22021") => {
                Error::Malformed("the request contains a character that cannot be stored (NUL)".into())
            }
            sqlx::Error::Database(db) if is_concurrency_abort(db.code().as_deref()) => Error::refused(
                StatusCode::CONFLICT,
                "conflict",
                "the request collided with a concurrent one and nothing was recorded; retry it",
            ),
            _ => Error::Internal(format!("database: {e}")),
        }
    }
}

/// Postgres aborted the transaction because of a concurrent one: a serialization failure
/// (40001) or a deadlock (40P01). The request was not applied and may simply be retried, so it
/// is the client's 409 `conflict`, never a 500 (R13).
fn is_concurrency_abort(code: Option<&str>) -> bool {
    matches!(code, Some("40001" | "40P01"))
}

/// SQLSTATE classes that mean "try again later", not "this request is wrong": connection
/// exceptions (08), insufficient resources (53), operator intervention such as a shutdown (57).
fn is_unavailable(code: Option<&str>) -> bool {
    code.is_some_and(|c| c.starts_with("08") || c.starts_with("53") || c.starts_with("57"))
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Replayed { status, body } = self {
            let mut response = (status, body).into_response();
            let headers = response.headers_mut();
            if status == StatusCode::NO_CONTENT {
                // `Vec<u8>` answers `application/octet-stream`; a 204 has no content at all.
                headers.remove(header::CONTENT_TYPE);
            } else {
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            }
            headers.insert("idempotency-replayed", HeaderValue::from_static("true"));
            return response;
        }
        let status = self.status();
        let body = serde_json::to_vec(&self.problem()).unwrap_or_default();
        let mut response = (status, body).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        response.extensions_mut().insert(ProblemCode(self.code()));
        if let Error::Unauthenticated = self {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        let retry_after = match self {
            Error::RateLimited { retry_after_secs } => Some(retry_after_secs),
            Error::IdempotencyKeyInFlight => Some(1),
            _ => None,
        };
        if let Some(secs) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        if let Error::Internal(cause) = self {
            response.extensions_mut().insert(InternalCause(cause));
        }
        response
    }
}

/// Maps a violated constraint, by name, to the error a client should see.
pub trait ResultExt<T> {
    fn on_constraint(self, name: &str, map: impl FnOnce() -> Error) -> Result<T>;
}

impl<T> ResultExt<T> for std::result::Result<T, sqlx::Error> {
    fn on_constraint(self, name: &str, map: impl FnOnce() -> Error) -> Result<T> {
        self.map_err(|e| match &e {
            sqlx::Error::Database(db) if db.constraint() == Some(name) => map(),
            _ => e.into(),
        })
    }
}
