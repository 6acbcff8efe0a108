//! One error type for the use cases: a refusal with its stable code, or a failure. How each is
//! answered over HTTP (status, problem+json) is `http::error`'s business.
//!
//! Refusals carry a stable [`Code`]; internal causes become a bare 500 `internal` whose cause is
//! logged once by the trace middleware and never echoed.

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
    /// The body did not arrive within the body read timeout.
    #[error("the request body did not arrive in time; send a request's body as soon as its headers")]
    RequestTimeout,
    #[error("the request body must be application/json")]
    UnsupportedMediaType,
    /// A refusal with a stable code: the protocol's rules, or a conflict like `artifact_exists`.
    #[error("{detail}")]
    Refused { code: Code, detail: String },
    #[error("the database is unavailable; retry shortly")]
    Unavailable,
    /// This token sent more requests than its rate limit allows.
    #[error("this token sent too many requests; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// This client address sent too many requests whose token was unknown.
    #[error("this address sent too many requests with unknown tokens; retry after {retry_after_secs} s")]
    TooManyFailedLogins { retry_after_secs: u64 },
    /// A request with the same `Idempotency-Key` is running now.
    #[error(
        "a request with this Idempotency-Key is in progress; retry it after Retry-After seconds to get its response"
    )]
    IdempotencyKeyInFlight,
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

impl Error {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidFields(vec![FieldError::new(field, message)])
    }

    pub fn refused(code: Code, detail: impl Into<String>) -> Self {
        Error::Refused { code, detail: detail.into() }
    }

    pub fn code(&self) -> Code {
        match self {
            Error::Unauthenticated => Code::Unauthenticated,
            Error::Forbidden(_) => Code::Forbidden,
            Error::NotFound(_) => Code::NotFound,
            Error::Malformed(_) => Code::MalformedRequest,
            Error::InvalidFields(_) => Code::InvalidField,
            Error::PayloadTooLarge(_) => Code::PayloadTooLarge,
            Error::RequestTimeout => Code::RequestTimeout,
            Error::UnsupportedMediaType => Code::UnsupportedMediaType,
            Error::Refused { code, .. } => *code,
            Error::Unavailable => Code::Unavailable,
            Error::RateLimited { .. } | Error::TooManyFailedLogins { .. } => Code::RateLimited,
            Error::IdempotencyKeyInFlight => Code::IdempotencyKeyInFlight,
            Error::Internal(_) => Code::Internal,
        }
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Self {
        match (r.code, r.field) {
            (Code::InvalidField, Some(field)) => Error::invalid(field, r.detail),
            (Code::NotFound, _) => Error::NotFound(r.detail),
            (code, _) => Error::Refused { code, detail: r.detail },
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
                Code::Conflict,
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
