//! What a request must pass before its handler runs, in the order that costs an attacker the
//! most and the service the least: a route and method that exist (this runs as a route layer,
//! so a 404 or 405 is answered before anything else), then for `/v1` a bearer token (401; an
//! address sending unknown tokens is 429 before any lookup), and only then its body, read whole
//! within the body read timeout (408) and the size limit (413), and fingerprinted for its
//! `Idempotency-Key`. An unauthenticated client never gets a byte of its body buffered.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::AppState;
use crate::app::actor::Actor;
use crate::auth::{Cached, hash_secret};
use crate::domain::Scope;
use crate::error::Error;
use crate::http::extract::BODY_LIMIT;
use crate::http::preconditions;
use crate::store::tokens;

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

/// The actor named by `Authorization: Bearer <token>`: 401 `unauthenticated` without one or
/// with an unknown one; 429 `rate_limited` when this token is over its rate limit, or when
/// `peer` sent too many unknown tokens lately and this one is not cached (no lookup is made).
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
    let hash = hash_secret(secret);
    if state.admin_token_hash.as_deref() == Some(&hash) {
        rate_limit(state, &hash)?;
        return Ok(Actor {
            token_id: None,
            token_name: "server-admin".into(),
            team: None,
            scope: Scope::Admin,
            agent: None,
            key_owner: uuid::Uuid::from_slice(&hash[..16]).expect("a SHA-256 hash has 16 bytes and more"),
        });
    }
    let cached = state.tokens.get(&hash);
    let token = match cached {
        Cached::Known(token) => Some(token),
        Cached::Unknown | Cached::Miss(_) => {
            let address = address_key(peer);
            state
                .failed_logins
                .exhausted(&address)
                .map_err(|retry_after_secs| Error::TooManyFailedLogins { retry_after_secs })?;
            let token = match cached {
                Cached::Miss(generation) => {
                    let token = state
                        .pool
                        .read(async |conn| tokens::find_by_hash(conn, &hash).await)
                        .await
                        .map_err(uncheckable)?;
                    state.tokens.put(hash.clone(), token.clone(), generation);
                    token
                }
                _ => None,
            };
            if token.is_none() {
                // Counted once it failed; the bucket only says when to stop looking.
                let _ = state.failed_logins.check(&address);
            }
            token
        }
    };
    let token = token.ok_or(Error::Unauthenticated)?;
    rate_limit(state, &hash)?;
    Ok(Actor {
        token_id: Some(token.id),
        token_name: token.name,
        team: token.team_id,
        scope: token.scope,
        agent: token.agent_id,
        key_owner: token.id,
    })
}

/// Takes one request from the bucket of a token that authenticated: only then, so made-up
/// tokens never get a bucket (they are 401 first).
fn rate_limit(state: &AppState, hash: &[u8]) -> Result<(), Error> {
    state.rate_limiter.check(hash).map_err(|retry_after_secs| Error::RateLimited { retry_after_secs })
}

/// Whom failed logins are counted against: the client's IPv4 address, or its IPv6 /64 (one
/// host usually holds a whole /64). Without a peer address (a request made in-process), one
/// shared key.
fn address_key(peer: Option<SocketAddr>) -> Vec<u8> {
    match peer.map(|p| p.ip().to_canonical()) {
        Some(IpAddr::V4(ip)) => ip.octets().to_vec(),
        Some(IpAddr::V6(ip)) => ip.octets()[..8].to_vec(),
        None => Vec::new(),
    }
}

/// The actor [`admit`] authenticated. Every `/v1` route passes through it, so a handler of
/// another route asking for an actor is a bug, answered 401.
impl<S: Send + Sync> FromRequestParts<S> for Actor {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Error> {
        parts.extensions.get::<Actor>().cloned().ok_or(Error::Unauthenticated)
    }
}

/// The token could not be looked up: say so, rather than blame the database for a request the
/// client may think was refused for its token.
fn uncheckable(e: sqlx::Error) -> Error {
    match Error::from(e) {
        Error::Unavailable => Error::refused(
            crate::domain::Code::Unavailable,
            "the bearer token could not be checked: the database is unavailable; retry after Retry-After seconds",
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_logins_count_against_an_ipv4_address_or_an_ipv6_64() {
        let key = |s: &str| address_key(Some(s.parse().unwrap()));
        assert_eq!(key("10.0.0.7:1234"), vec![10, 0, 0, 7]);
        assert_eq!(key("[::ffff:10.0.0.7]:1"), vec![10, 0, 0, 7], "a mapped IPv4 is that IPv4");
        assert_eq!(key("[2001:db8:1:2::1]:1"), key("[2001:db8:1:2:ffff::9]:2"));
        assert_ne!(key("[2001:db8:1:2::1]:1"), key("[2001:db8:1:3::1]:1"));
        assert!(address_key(None).is_empty());
    }
}
