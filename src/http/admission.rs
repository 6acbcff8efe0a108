//! What a request must pass before its handler runs, in the order that costs an attacker the
//! most and the service the least: a route and method that exist (this runs as a route layer,
//! so a 404 or 405 is answered before anything else), then for `/v1` a bearer token (401; an
//! address sending unknown tokens is 429 before any lookup), and only then its body, read whole
//! within the body read timeout (408) and the size limit (413), and fingerprinted for its
//! `Idempotency-Key`. An unauthenticated client never gets a byte of its body buffered.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::app::actor::Actor;
use crate::error::Error;
use crate::http::extract::BODY_LIMIT;
use crate::http::preconditions;
use crate::http::state::AppState;

/// The route layer of every route: authenticates `/v1` requests, then reads the body.
pub async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let admitted = async {
        // A tool call of `/mcp` comes in-process with the actor `/mcp` authenticated.
        let authenticated = parts.extensions.get::<Actor>().is_some();
        if (parts.uri.path().starts_with("/v1/") || parts.uri.path() == "/mcp") && !authenticated {
            let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
            let actor = authenticate(&state, &parts.headers, peer).await?;
            parts.extensions.insert(actor);
        }
        let bytes = read_body(body, state.body_read_timeout).await?;
        if let Some(key) = preconditions::idempotency_key(&parts, &bytes)? {
            parts.extensions.insert(key);
        }
        Ok::<_, Error>(bytes)
    };
    match admitted.await {
        Ok(bytes) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Err(e) => e.into_response(),
    }
}

/// The whole body, within `within` (408 `request_timeout`) and [`BODY_LIMIT`] (413, at once
/// when `Content-Length` says so).
async fn read_body(body: Body, within: Duration) -> Result<Bytes, Error> {
    if axum::body::HttpBody::size_hint(&body).lower() > BODY_LIMIT as u64 {
        return Err(Error::PayloadTooLarge(BODY_LIMIT));
    }
    match tokio::time::timeout(within, Limited::new(body, BODY_LIMIT).collect()).await {
        Err(_) => Err(Error::RequestTimeout),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(Error::PayloadTooLarge(BODY_LIMIT)),
        Ok(Err(e)) => Err(Error::Malformed(format!("the request body could not be read: {e}"))),
    }
}

/// The actor named by `Authorization: Bearer <token>`: 401 `unauthenticated` without one;
/// else what authenticating its secret answers (see [`crate::app::authenticate::Authenticator::authenticate`]).
async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> Result<Actor, Error> {
    let secret = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|t| !t.is_empty())
        .ok_or(Error::Unauthenticated)?;
    state.auth.authenticate(&state.pool, secret, peer.map(|p| p.ip())).await
}

/// The actor [`admit`] authenticated. Every `/v1` route passes through it, so a handler of
/// another route asking for an actor is a bug, answered 401.
impl<S: Send + Sync> FromRequestParts<S> for Actor {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Error> {
        parts.extensions.get::<Actor>().cloned().ok_or(Error::Unauthenticated)
    }
}
