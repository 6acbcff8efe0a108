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
