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
    // A body that reads at once is the common case; only one that does not is read again, as a
    // JSON value, to say exactly what is wrong with it (and a duplicate key, which a struct
    // refuses, is then taken last-wins, as a JSON value takes it).
    if let Ok(body) = serde_json::from_slice(bytes) {
        return Ok(body);
    }
    // Syntax first: serde_json reports some wrong types (a number or null where an enum is
    // expected) as syntax errors, and well-formed JSON of the wrong shape is 422, never 400.
    let mut value: serde_json::Value = serde_json::from_slice(bytes).map_err(malformed)?;
    let mut errors: Vec<FieldError> = Vec::new();
    // serde stops at the first field at fault. To name every malformed id, each field at fault
    // is read again as null (an optional field takes it), then as a well-formed id (a required
    // one takes it), until the body reads or a field fails a third time.
    let stand_ins = [serde_json::Value::Null, serde_json::Value::from("a")];
    let mut tries = 0;
    loop {
        let error = match serde_path_to_error::deserialize(&value) {
            Ok(body) if errors.is_empty() => return Ok(body),
            Ok(_) => break,
            Err(e) => e,
        };
        let path = error.path().to_string();
        let message = error.into_inner().to_string();
        // serde names a missing field only in its message, not in the path.
        let missing = message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`'));
        let field = match (path.as_str(), missing) {
            (".", Some(name)) => name.to_owned(),
            (".", None) => "body".to_owned(),
            (path, Some(name)) => format!("{path}.{name}"),
            (path, None) => path.to_owned(),
        };
        let again = missing.is_none() && path != ".";
        if errors.last().is_some_and(|e| e.field == field) {
            tries += 1;
        } else if errors.iter().any(|e| e.field == field) {
            break;
        } else {
            tries = 0;
            errors.push(FieldError::new(field, message));
        }
        match (value_at(&mut value, &path), stand_ins.get(tries)) {
            (Some(at), Some(stand_in)) if again => *at = stand_in.clone(),
            _ => break,
        }
    }
    Err(Error::InvalidFields(errors))
}

/// The value at a path as `serde_path_to_error` spells it (`remedy.agent`, `contributors[1].agent`).
fn value_at<'a>(value: &'a mut serde_json::Value, path: &str) -> Option<&'a mut serde_json::Value> {
    let mut at = value;
    for segment in path.split('.').filter(|s| !s.is_empty()) {
        let (name, indices) = segment.split_once('[').map_or((segment, ""), |(n, rest)| (n, rest));
        if !name.is_empty() {
            at = at.get_mut(name)?;
        }
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            at = at.get_mut(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(at)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{ArtifactInput, CheckInput};

    fn fields<T: DeserializeOwned + std::fmt::Debug>(body: serde_json::Value) -> Vec<String> {
        match parse::<T>(body.to_string().as_bytes()) {
            Err(Error::InvalidFields(errors)) => errors.into_iter().map(|e| e.field).collect(),
            other => panic!("expected invalid_field, got {other:?}"),
        }
    }

    #[test]
    fn every_malformed_id_of_a_body_is_named_by_its_path() {
        let check = serde_json::json!({ "agent": "Bad Agent", "artifact": "../x" });
        assert_eq!(fields::<CheckInput>(check), ["agent", "artifact"]);
        let create = serde_json::json!({
            "key": "auth", "title": "t", "author": "a",
            "contributors": [{ "agent": "b", "role": "pair" }, { "agent": "B!", "role": "pair" }],
        });
        assert_eq!(fields::<ArtifactInput>(create), ["contributors[1].agent"]);
        let create = serde_json::json!({ "key": "/abs", "title": "t", "author": "A" });
        assert_eq!(fields::<ArtifactInput>(create), ["author", "key"]);
        // A field that is no id is named once, and the reading stops there.
        let create = serde_json::json!({ "key": "/abs", "title": 7, "author": "A" });
        assert_eq!(fields::<ArtifactInput>(create), ["author", "key", "title"]);
    }
}
