//! Conditional requests: an `ETag` on what a dashboard polls, `304 Not Modified` when the
//! client's `If-None-Match` still matches, so a poll that finds nothing new costs no body.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::service::reads::{Fetched, Tagged};

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
