//! The events of a team's log (R12), typed: one schema per `type` with the shape of its `data`,
//! and [`TypedEvent`], the union of them all that the spec calls `Event`, tagged by `type`.
//!
//! The log stores and serves each event's `data` as the use case wrote it (`app::*`, `NewEvent`);
//! these types describe it for the spec and its clients. `tests/api/events_typed.rs` holds every
//! event the service emits to them: each `type` written in `src/app` is listed here, and each
//! payload reads back as its type, with no field unknown or missing.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::TokenRef;
use crate::domain::{
    AgentKind, Contributor, Profile, Remedy, ResolutionAction, ReviewKind, Scope, State, Verdict,
};

/// Defines, for each event type, its event schema (the common fields, `type` and its `data`),
/// and the union [`TypedEvent`] of them all with its discriminator.
macro_rules! event_types {
    ($($(#[$meta:meta])* $variant:ident = $name:literal, $event:ident($data:ident);)*) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Deserialize, ToSchema)]
            #[serde(deny_unknown_fields)]
            pub struct $event {
                /// Team-wide, increasing, never reused.
                #[schema(example = 42)]
                pub seq: i64,
                pub at: DateTime<Utc>,
                /// The artifact changed; null for a change of the team, an agent or a token.
                #[schema(required = true, example = "auth")]
                pub artifact: Option<String>,
                #[serde(rename = "type")]
                #[schema(schema_with = event_type::<$event>)]
                pub kind: String,
                /// The agent the change names, if any.
                #[schema(required = true, example = "runtime-eng")]
                pub actor: Option<String>,
                /// The token that made the change.
                pub token: TokenRef,
                pub data: $data,
            }

            impl Named for $event {
                const TYPE: &'static str = $name;
            }
        )*

        /// One state change (R12): `type` tells which, and the shape of its `data`.
        #[derive(Debug, ToSchema)]
        #[serde(untagged)]
        #[schema(as = Event, discriminator(property_name = "type", mapping(
            $(($name = concat!("#/components/schemas/", stringify!($event))),)*
        )))]
        pub enum TypedEvent {
            $($variant($event),)*
        }

        /// Every event type, as `type` spells it.
        pub const EVENT_TYPES: &[&str] = &[$($name,)*];

        impl TypedEvent {
            /// Reads an event as served, as the type its `type` names: an unknown type, or a
            /// field unknown, missing or of another shape, is an error.
            pub fn parse(event: Value) -> Result<TypedEvent, String> {
                let kind = event.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
                let read = |e: serde_json::Error| format!("{kind}: {e}");
                match kind.as_str() {
                    $($name => serde_json::from_value(event).map(TypedEvent::$variant).map_err(read),)*
                    _ => Err(format!("no schema for event type '{kind}'")),
                }
            }
        }
    };
}

/// An event schema and the `type` it is sent with.
trait Named {
    const TYPE: &'static str;
}

/// The schema of `type` in an event schema: its one value.
fn event_type<E: Named>() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some([E::TYPE]))
        .examples([E::TYPE])
        .build()
}

event_types! {
    /// `team.created`: the team was created.
    TeamCreated = "team.created", TeamCreatedEvent(TeamChanged);
    /// `team.updated`: the team's name or policy changed.
    TeamUpdated = "team.updated", TeamUpdatedEvent(TeamChanged);
    /// `agent.created`: an agent joined the team (`actor` is the agent).
    AgentCreated = "agent.created", AgentCreatedEvent(AgentChanged);
    /// `agent.updated`: an agent changed (`actor` is the agent).
    AgentUpdated = "agent.updated", AgentUpdatedEvent(AgentChanged);
    /// `token.created`: a team token was created.
    TokenCreated = "token.created", TokenCreatedEvent(TokenCreated);
    /// `token.revoked`: a team token was revoked.
    TokenRevoked = "token.revoked", TokenRevokedEvent(TokenRevoked);
    /// `artifact.created`: an artifact was created with its version 1, in review.
    ArtifactCreated = "artifact.created", ArtifactCreatedEvent(ArtifactCreated);
    /// `version.submitted`: a new version is in review (`actor` is its author).
    VersionSubmitted = "version.submitted", VersionSubmittedEvent(VersionSubmitted);
    /// `review.approved`: a reviewer approved a version (`actor` is the reviewer).
    ReviewApproved = "review.approved", ReviewApprovedEvent(ReviewApproved);
    /// `review.rejected`: a reviewer rejected a version and its credited agents are locked out
    /// (`actor` is the reviewer).
    ReviewRejected = "review.rejected", ReviewRejectedEvent(ReviewRejected);
    /// `assignment.created`: an agent was assigned the revision (`actor` is the assignee).
    AssignmentCreated = "assignment.created", AssignmentCreatedEvent(AssignmentCreated);
    /// `assignment.released`: the assignment was released (`actor` is the former assignee).
    AssignmentReleased = "assignment.released", AssignmentReleasedEvent(AssignmentReleased);
    /// `escalation.resolved`: the user resolved a deadlock (`actor` is the agent assigned, if any).
    EscalationResolved = "escalation.resolved", EscalationResolvedEvent(EscalationResolved);
    /// `lockout.lifted`: the user lifted a lockout early (`actor` is the agent).
    LockoutLifted = "lockout.lifted", LockoutLiftedEvent(LockoutLifted);
}

/// The team as it is after the change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamChanged {
    #[schema(example = "acme")]
    pub team: String,
    #[schema(required = true, example = "Acme")]
    pub display_name: Option<String>,
    pub profile: Profile,
    #[schema(example = 1)]
    pub required_approvals: i32,
}

/// The agent as it is after the change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentChanged {
    #[schema(example = "revision-eng")]
    pub agent: String,
    pub kind: AgentKind,
    #[schema(example = json!(["engineer"]))]
    pub roles: Vec<String>,
    pub can_review: bool,
    pub can_author: bool,
    #[schema(example = json!(["rust"]))]
    pub expertise: Vec<String>,
    pub active: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenCreated {
    pub token_id: Uuid,
    #[schema(example = "orchestrator")]
    pub name: String,
    pub scope: Scope,
    /// The agent an `agent` token acts as.
    #[schema(required = true)]
    pub agent: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRevoked {
    pub token_id: Uuid,
    #[schema(example = "orchestrator")]
    pub name: String,
    pub scope: Scope,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtifactCreated {
    /// Always 1.
    #[schema(example = 1)]
    pub version: i32,
    #[schema(example = "runtime-eng")]
    pub author: String,
    /// As sent: null when the request had none.
    #[schema(required = true)]
    pub contributors: Option<Vec<Contributor>>,
    #[schema(example = "Authentication module")]
    pub title: String,
}

/// Why a version was accepted (PROTOCOL §4, after R13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VersionKind {
    /// The first version of the artifact.
    First,
    /// The assignee's revision after a rejection.
    Revision,
    /// The author of the version under review replaced it.
    Supersede,
    /// A version after approval: a new revision cycle.
    NewCycle,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionSubmitted {
    #[schema(example = 2)]
    pub version: i32,
    #[schema(example = 1)]
    pub cycle: i32,
    pub kind: VersionKind,
    #[schema(example = "revision-eng")]
    pub author: String,
    /// As sent: null when the request had none.
    #[schema(required = true)]
    pub contributors: Option<Vec<Contributor>>,
    /// Always `in_review`.
    pub state: State,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewApproved {
    #[schema(example = 2)]
    pub version: i32,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    /// Always `approve`.
    pub verdict: Verdict,
    pub kind: ReviewKind,
    /// `approved` when this approval closed the version, else still `in_review`.
    pub state: State,
    /// When more approvals are needed: the distinct approvals so far.
    #[schema(nullable = false, example = 1)]
    pub approvals: Option<i64>,
    /// When more approvals are needed: how many close the version.
    #[schema(nullable = false, example = 2)]
    pub required_approvals: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewRejected {
    #[schema(example = 1)]
    pub version: i32,
    #[schema(example = "quality-reviewer")]
    pub reviewer: String,
    /// Always `reject`.
    pub verdict: Verdict,
    pub kind: ReviewKind,
    /// `changes_requested`, or `deadlocked` when nobody is left who may revise (R9).
    pub state: State,
    /// The agents this rejection locked out (everyone credited on the version).
    #[schema(example = json!(["runtime-eng"]))]
    pub lockouts: Vec<String>,
    #[schema(example = "Error handling is missing.")]
    pub reason: String,
    #[schema(required = true)]
    pub remedy: Option<Remedy>,
    /// Present, and true, when the rejection deadlocked the artifact and opened an escalation.
    #[schema(nullable = false)]
    pub deadlocked: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentCreated {
    #[schema(example = "revision-eng")]
    pub agent: String,
    #[schema(required = true, example = "Takes over after the quality rejection.")]
    pub note: Option<String>,
    /// Always `in_revision`.
    pub state: State,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentReleased {
    #[schema(example = "revision-eng")]
    pub agent: String,
    /// Always `changes_requested`.
    pub state: State,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EscalationResolved {
    pub action: ResolutionAction,
    /// The agent assigned; null for `abandon`.
    #[schema(required = true, example = "new-eng")]
    pub agent: Option<String>,
    #[schema(example = "A fresh engineer joined the team for this.")]
    pub reason: String,
    /// `in_revision` after `assign`, `abandoned` after `abandon`.
    pub state: State,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LockoutLifted {
    #[schema(example = "runtime-eng")]
    pub agent: String,
    #[schema(example = "The rejection was about a file this agent did not write.")]
    pub reason: String,
}
