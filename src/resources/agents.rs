//! A team's agents, each with its active lockouts.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::AgentKind;

#[derive(Debug, Serialize, ToSchema)]
pub struct Agent {
    #[schema(example = "revision-eng")]
    pub id: String,
    #[schema(required = true, example = "Revision engineer")]
    pub display_name: Option<String>,
    pub kind: AgentKind,
    #[schema(example = json!(["engineer"]))]
    pub roles: Vec<String>,
    pub can_review: bool,
    pub can_author: bool,
    #[schema(example = json!(["rust", "auth"]))]
    pub expertise: Vec<String>,
    /// Other names of the agent, each naming it alone in the team (R16): a runtime's subagent
    /// name, a commit author's e-mail address.
    #[schema(example = json!(["revision-engineer", "revision-eng@example.com"]))]
    pub aliases: Vec<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// An active lockout of the agent.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentLockout {
    #[schema(example = "auth")]
    pub artifact: String,
    /// The rejected version the agent was credited on.
    #[schema(example = 1)]
    pub version: i32,
    #[schema(required = true, example = "Error handling is missing.")]
    pub reason: Option<String>,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

/// An agent with its active lockouts.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentDetail {
    #[serde(flatten)]
    pub agent: Agent,
    pub lockouts: Vec<AgentLockout>,
}

page!(
    /// A page of the team's agents, in id order.
    AgentPage of Agent
);
