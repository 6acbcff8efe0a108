//! The events of a team's log (R12), typed: [`EventData`], one variant per `type` with the
//! shape of its `data`, which the use cases (`app::*`) build and `store::events::append` writes;
//! and, for the spec, one event schema per `type` and [`TypedEvent`], the union of them all
//! that the spec calls `Event`, tagged by `type`. Both come from the one list in
//! `event_types!` below, the only place a `type` is spelled.
//!
//! The log serves each event's `data` as stored (see `resources::Event`); `EventData::parse`
//! reads it back as its type, and `tests/api/typed_events.rs` holds every event a run through
//! every use case emits to both.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::TokenRef;
use crate::domain::{
    self, AgentKind, Contributor, DisabledReason, ForgeKind, Profile, Remedy, ResolutionAction, ReviewKind,
    Scope, State, Verdict,
};

/// Defines [`EventData`] with its `type`s, and, for each type, its event schema (the common
/// fields, `type` and its `data`) and the union [`TypedEvent`] of them all with its
/// discriminator.
macro_rules! event_types {
    ($($(#[$meta:meta])* $variant:ident = $name:literal, $event:ident($data:ident);)*) => {
        /// What changed, with its data: the event a use case appends to its team's log.
        /// Serialized, it is the event's `data` alone; [`EventData::type_name`] is its `type`.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum EventData {
            $($(#[$meta])* $variant($data),)*
        }

        /// Every event type, as `type` spells it.
        pub const EVENT_TYPES: &[&str] = &[$($name,)*];

        impl EventData {
            /// The event's `type`.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(EventData::$variant(_) => $name,)*
                }
            }

            /// Reads an event's `data` as stored, as the type `type_name` names: an unknown
            /// type, or a field unknown, missing or of another shape, is an error.
            pub fn parse(type_name: &str, data: &str) -> Result<EventData, String> {
                let read = |e: serde_json::Error| format!("{type_name}: {e}");
                match type_name {
                    $($name => serde_json::from_str(data).map(EventData::$variant).map_err(read),)*
                    _ => Err(format!("no event type '{type_name}'")),
                }
            }
        }

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
    /// `webhook.created`: a webhook subscription was created.
    WebhookCreated = "webhook.created", WebhookCreatedEvent(WebhookChanged);
    /// `webhook.updated`: a webhook subscription changed (its URL, filters, description,
    /// whether it is enabled, or its secret, rotated).
    WebhookUpdated = "webhook.updated", WebhookUpdatedEvent(WebhookChanged);
    /// `webhook.deleted`: a webhook subscription was deleted.
    WebhookDeleted = "webhook.deleted", WebhookDeletedEvent(WebhookChanged);
    /// `webhook.disabled`: deliveries to a webhook stopped on their own: its receiver answered
    /// `410 Gone`, or every attempt failed for 5 days (`disabled_reason`).
    WebhookDisabled = "webhook.disabled", WebhookDisabledEvent(WebhookChanged);
    /// `forge.created`: a forge for commit statuses was set up.
    ForgeCreated = "forge.created", ForgeCreatedEvent(ForgeChanged);
    /// `forge.updated`: a forge's settings changed.
    ForgeUpdated = "forge.updated", ForgeUpdatedEvent(ForgeChanged);
    /// `forge.deleted`: a forge was removed.
    ForgeDeleted = "forge.deleted", ForgeDeletedEvent(ForgeChanged);
    /// `forge.disabled`: commit statuses to a forge stopped on their own: every attempt failed
    /// for 5 days (`disabled_reason`).
    ForgeDisabled = "forge.disabled", ForgeDisabledEvent(ForgeChanged);
}

/// A webhook subscription as the change leaves it (its secret never appears).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookChanged {
    pub webhook: Uuid,
    /// The host events are sent to (the URL's path and query, which may hold a credential,
    /// are shown only to admin tokens, by `GET …/webhooks/{id}`).
    #[schema(example = "hooks.example.com")]
    pub host: String,
    /// Its filters; empty for every event.
    #[schema(example = json!(["review.*"]))]
    pub events: Vec<String>,
    pub enabled: bool,
    /// Why deliveries stopped on their own, if they did.
    #[schema(required = true)]
    pub disabled_reason: Option<DisabledReason>,
}

/// A forge as the change leaves it (its token never appears).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgeChanged {
    #[schema(example = "github")]
    pub forge: String,
    pub kind: ForgeKind,
    #[schema(example = "https://api.github.com")]
    pub api_url: String,
    #[schema(example = "acme/web")]
    pub repository: String,
    #[schema(example = "reviewlock")]
    pub context: String,
    pub enabled: bool,
    /// Why statuses stopped on their own, if they did.
    #[schema(required = true)]
    pub disabled_reason: Option<DisabledReason>,
}

/// The team as it is after the change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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
    /// The agent's aliases (R16); absent from events logged before aliases existed.
    #[serde(default)]
    #[schema(example = json!(["general-purpose"]))]
    pub aliases: Vec<String>,
    pub active: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRevoked {
    pub token_id: Uuid,
    #[schema(example = "orchestrator")]
    pub name: String,
    pub scope: Scope,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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

impl From<domain::VersionKind> for VersionKind {
    fn from(kind: domain::VersionKind) -> Self {
        match kind {
            domain::VersionKind::First => VersionKind::First,
            domain::VersionKind::Revision => VersionKind::Revision,
            domain::VersionKind::Supersede => VersionKind::Supersede,
            domain::VersionKind::NewCycle => VersionKind::NewCycle,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 1)]
    pub approvals: Option<i64>,
    /// When more approvals are needed: how many close the version.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 2)]
    pub required_approvals: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub deadlocked: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentCreated {
    #[schema(example = "revision-eng")]
    pub agent: String,
    #[schema(required = true, example = "Takes over after the quality rejection.")]
    pub note: Option<String>,
    /// Always `in_revision`.
    pub state: State,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentReleased {
    #[schema(example = "revision-eng")]
    pub agent: String,
    /// Always `changes_requested`.
    pub state: State,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LockoutLifted {
    #[schema(example = "runtime-eng")]
    pub agent: String,
    #[schema(example = "The rejection was about a file this agent did not write.")]
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::domain::RemedyAction;

    fn rejected(remedy: Option<Remedy>, deadlocked: Option<bool>) -> EventData {
        EventData::ReviewRejected(ReviewRejected {
            version: 1,
            reviewer: "q".into(),
            verdict: Verdict::Reject,
            kind: ReviewKind::Review,
            state: State::ChangesRequested,
            lockouts: vec!["a".into()],
            reason: "no tests".into(),
            remedy,
            deadlocked,
        })
    }

    /// The contract of the payloads whose keys vary: a key absent is absent, not null.
    #[test]
    fn optional_keys_are_absent_or_null_as_served() {
        let approved = |approvals, required_approvals| {
            EventData::ReviewApproved(ReviewApproved {
                version: 1,
                reviewer: "q".into(),
                verdict: Verdict::Approve,
                kind: ReviewKind::Review,
                state: State::InReview,
                approvals,
                required_approvals,
            })
        };
        let base = json!({ "version": 1, "reviewer": "q", "verdict": "approve", "kind": "review",
                           "state": "in_review" });
        assert_eq!(serde_json::to_value(approved(None, None)).unwrap(), base);
        let mut more = base.clone();
        more["approvals"] = json!(1);
        more["required_approvals"] = json!(2);
        assert_eq!(serde_json::to_value(approved(Some(1), Some(2))).unwrap(), more);

        let base = json!({ "version": 1, "reviewer": "q", "verdict": "reject", "kind": "review",
                           "state": "changes_requested", "lockouts": ["a"], "reason": "no tests",
                           "remedy": null });
        assert_eq!(serde_json::to_value(rejected(None, None)).unwrap(), base);
        let remedy = Remedy { action: RemedyAction::Reassign, agent: None, expertise: vec![] };
        let mut deadlocked = base.clone();
        deadlocked["remedy"] = json!({ "action": "reassign", "agent": null, "expertise": [] });
        deadlocked["deadlocked"] = json!(true);
        assert_eq!(serde_json::to_value(rejected(Some(remedy), Some(true))).unwrap(), deadlocked);
    }

    #[test]
    fn data_reads_back_only_as_the_type_it_was_written_as() {
        let data = rejected(None, None);
        let stored = serde_json::to_string(&data).unwrap();
        assert_eq!(EventData::parse(data.type_name(), &stored), Ok(data));
        let err = EventData::parse("review.approved", &stored).unwrap_err();
        assert!(err.starts_with("review.approved: unknown field"), "{err}");
        assert_eq!(
            EventData::parse("review.withdrawn", &stored),
            Err("no event type 'review.withdrawn'".into())
        );
    }

    #[test]
    fn every_variant_has_its_own_type() {
        let unique: std::collections::BTreeSet<_> = EVENT_TYPES.iter().collect();
        assert_eq!(unique.len(), EVENT_TYPES.len());
    }
}
