//! Preconditions: what a request asserts besides its body. `Idempotency-Key` makes a write's
//! retry safe (`app::unit`), `If-Match` makes a write to an artifact conditional on its ETag,
//! and `If-None-Match` lets a read answer `304 Not Modified` when nothing changed. Also how a
//! write's outcome is answered: 201, 200 or 204, or the first reply again when replayed.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::app::reads::{Fetched, Tagged};
use crate::app::unit::{Change, IdempotencyKey, Outcome, Preconditions};
use crate::error::Error;

/// A write's `Idempotency-Key` (read by [`idempotency_key`] with the body) and `If-Match`.
impl<S: Send + Sync> FromRequestParts<S> for Preconditions {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Error> {
        Ok(Preconditions {
            idempotency: parts.extensions.get::<IdempotencyKey>().cloned(),
            if_match: parts.headers.get(header::IF_MATCH).and_then(|v| v.to_str().ok()).map(str::to_owned),
        })
    }
}

/// The longest `Idempotency-Key` accepted.
const MAX_KEY: usize = 255;

/// The `Idempotency-Key` of a write under `/v1`, with the fingerprint of its request (method,
/// path and body), so the write can claim the key in its transaction; read by
/// `admission::admit` once the body is in.
pub fn idempotency_key(parts: &Parts, body: &[u8]) -> Result<Option<IdempotencyKey>, Error> {
    let writes = matches!(parts.method, Method::POST | Method::PUT | Method::DELETE);
    let Some(value) =
        parts.headers.get("idempotency-key").filter(|_| writes && parts.uri.path().starts_with("/v1/"))
    else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default().trim().trim_matches('"').to_owned();
    if key.is_empty() || key.len() > MAX_KEY || !key.chars().all(|c| c.is_ascii_graphic()) {
        let message = format!("must be 1 to {MAX_KEY} visible ASCII characters");
        return Err(Error::invalid("Idempotency-Key", message));
    }
    let mut hasher = Sha256::new();
    hasher.update(parts.method.as_str());
    hasher.update(b" ");
    hasher.update(parts.uri.path_and_query().map_or("", |p| p.as_str()));
    hasher.update(b"\n");
    hasher.update(body);
    Ok(Some(IdempotencyKey { key, fingerprint: hasher.finalize().to_vec() }))
}

/// The header that answers the team's event seq a write committed (R18).
pub const SEQ: &str = "reviewlock-seq";

/// A write's outcome as a response: 201 for what it created, 200 for what it changed, 204 for
/// what it removed; a replay answers the first reply's bytes with `Idempotency-Replayed: true`.
/// Either carries the seq of the write's event in `Reviewlock-Seq`, when it logged one.
pub fn reply<T: Serialize>(outcome: Outcome<T>) -> Response {
    let status = |change| match change {
        Change::Created => StatusCode::CREATED,
        Change::Updated => StatusCode::OK,
        Change::Removed => StatusCode::NO_CONTENT,
    };
    let (mut response, seq) = match outcome {
        Outcome::Done(Change::Removed, _, seq) => (StatusCode::NO_CONTENT.into_response(), seq),
        Outcome::Done(change, body, seq) => ((status(change), axum::Json(body)).into_response(), seq),
        Outcome::Replayed { change, body, seq } => {
            let mut response = (status(change), body).into_response();
            let headers = response.headers_mut();
            if change == Change::Removed {
                // `Vec<u8>` answers `application/octet-stream`; a 204 has no content at all.
                headers.remove(header::CONTENT_TYPE);
            } else {
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            }
            headers.insert("idempotency-replayed", HeaderValue::from_static("true"));
            (response, seq)
        }
    };
    if let Some(seq) = seq {
        response.headers_mut().insert(SEQ, HeaderValue::from(seq));
    }
    response
}

/// Whether `If-None-Match` names `etag` (or `*`); weak and strong forms compare equal.
pub fn matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').map(|t| t.trim().trim_start_matches("W/")).any(|t| t == "*" || t == etag))
}

/// `304 Not Modified` with the ETag and no body.
pub fn not_modified(etag: &str) -> Response {
    tagged(etag, StatusCode::NOT_MODIFIED)
}

/// The response with its `ETag`.
pub fn tagged(etag: &str, response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    if let Ok(value) = HeaderValue::from_str(etag) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// What the client holds, when it sent `If-None-Match`: whether an ETag is one it names.
pub fn held(headers: &HeaderMap) -> Option<impl FnOnce(&str) -> bool + '_> {
    headers.contains_key(header::IF_NONE_MATCH).then_some(|etag: &str| matches(headers, etag))
}

/// `304 Not Modified` for a read the client holds; else the body `show` makes, with its ETag.
pub fn respond<T, B: serde::Serialize>(fetched: Fetched<T>, show: impl FnOnce(T) -> B) -> Response {
    match fetched {
        Fetched::Unchanged(etag) => not_modified(&etag),
        Fetched::Full(Tagged { etag, body }) => tagged(&etag, axum::Json(show(body))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_weakly_and_accepts_lists_and_star() {
        let headers = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
            h
        };
        assert!(matches(&headers("\"7\""), "\"7\""));
        assert!(matches(&headers("W/\"7\""), "\"7\""));
        assert!(matches(&headers("\"1\", \"7\""), "\"7\""));
        assert!(matches(&headers("*"), "\"7\""));
        assert!(!matches(&headers("\"8\""), "\"7\""));
        assert!(!matches(&HeaderMap::new(), "\"7\""));
    }
}
