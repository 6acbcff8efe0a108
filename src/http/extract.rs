//! Extractors whose rejections are our problem+json errors. (The actor is `admission`'s.)

use axum::extract::path::ErrorKind;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{Method, header};
use bytes::Bytes;
use serde::de::DeserializeOwned;

use crate::domain::{AgentId, ArtifactKey, TeamId};
use crate::error::{Error, FieldError};

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 256 * 1024;

/// A JSON body: malformed JSON is 400 `malformed_request`; wrong types, unknown fields and
/// missing fields are 422 `invalid_field` naming the field.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        let json_type =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_none_or(|v| {
                v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json_type {
            return Err(Error::UnsupportedMediaType);
        }
        // `admission::admit` read the body already, within its limits.
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e: BytesRejection| Error::Malformed(e.body_text()))?;
        parse(&bytes).map(Json)
    }
}

pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    // Syntax first: serde_json reports some wrong types (a number or null where an enum is
    // expected) as syntax errors, and well-formed JSON of the wrong shape is 422, never 400.
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(malformed)?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        // serde names a missing field only in its message, not in the path.
        let missing = message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`'));
        let field = match (path.as_str(), missing) {
            (".", Some(name)) => name.to_owned(),
            (".", None) => "body".to_owned(),
            (path, Some(name)) => format!("{path}.{name}"),
            (path, None) => path.to_owned(),
        };
        Error::InvalidFields(vec![FieldError::new(field, message)])
    })
}

fn malformed(e: serde_json::Error) -> Error {
    Error::Malformed(format!("the body is not valid JSON: {e}"))
}

/// serde's messages end with "at line 1 column 42", which says nothing about the field.
fn strip_position(message: &str) -> String {
    message.split(" at line ").next().unwrap_or(message).to_owned()
}

/// Path parameters. An id that is not well formed names nothing: a `PUT`, which would create
/// what it names, is 422 `invalid_field` naming the parameter; any other request is 404
/// `not_found`, but 400 `malformed_request` with a NUL, as any other value that cannot be read
/// (a token id that is no UUID).
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        let rejection = match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => return Ok(Path(value)),
            Err(rejection) => rejection,
        };
        let ids = [TeamId::EXPECTED, AgentId::EXPECTED, ArtifactKey::EXPECTED];
        if let PathRejection::FailedToDeserializePathParams(e) = &rejection
            && let ErrorKind::DeserializeError { key, value, message } = e.kind()
            && ids.contains(&message.as_str())
        {
            return Err(match parts.method {
                Method::PUT => Error::invalid(key.as_str(), message.as_str()),
                // A NUL cannot even be looked up.
                _ if value.contains('\0') => Error::Malformed(rejection.body_text()),
                _ => Error::NotFound(format!("no {key} is named '{value}'")),
            });
        }
        Err(Error::Malformed(rejection.body_text()))
    }
}

/// Query parameters; a value of the wrong type is 422 `invalid_field`.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(Error))]
pub struct Query<T>(pub T);

impl From<QueryRejection> for Error {
    fn from(e: QueryRejection) -> Self {
        Error::invalid("query", strip_position(&e.body_text()))
    }
}
