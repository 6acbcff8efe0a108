//! Bearer tokens as listed, and a new one with its secret.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::Scope;

/// A token as listed: never its secret.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Token {
    pub id: uuid::Uuid,
    #[schema(example = "orchestrator")]
    pub name: String,
    pub scope: Scope,
    /// The agent an `agent` token acts as; absent for other scopes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub agent: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The token a request is made with.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CallingToken {
    /// Null for the server-wide admin token set by `REVIEWLOCK_ADMIN_TOKEN`, which is
    /// configuration, not a stored token.
    #[schema(required = true)]
    pub id: Option<uuid::Uuid>,
    #[schema(example = "alice")]
    pub name: String,
    pub scope: Scope,
    /// The agent an `agent` token acts as.
    #[schema(required = true)]
    pub agent: Option<String>,
    /// A server-wide admin token: an admin of every team.
    pub server_wide: bool,
}

/// A new token with its secret, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub info: Token,
    /// The bearer secret. It is stored only as a hash and cannot be shown again: a replay of
    /// the request (same `Idempotency-Key`) answers 200 with the token without it.
    #[schema(example = "rl_5f0c3a9e1b7d4c2a8e6f0b1d3c5a7e9f")]
    pub token: String,
}
