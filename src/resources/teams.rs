//! A team: the tenant that owns agents, artifacts, tokens and a policy (R11).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::Policy;

#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    #[schema(example = "acme")]
    pub id: String,
    #[schema(required = true, example = "Acme")]
    pub display_name: Option<String>,
    pub policy: Policy,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}
