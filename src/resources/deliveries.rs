//! Where a team's events are delivered: webhook subscriptions, forges (commit statuses), and
//! the delivery log. Secrets and tokens are never shown after they are set.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::domain::{DisabledReason, ForgeKind};

/// Where a target is in its team's log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveryState {
    /// The last seq this target is done with (delivered, or not wanted); the next event it
    /// sends is the first after it.
    #[schema(example = 41)]
    pub cursor: i64,
    /// Failed attempts at the event after the cursor (0 when the last one succeeded).
    #[schema(example = 0)]
    pub failed_attempts: i32,
    /// Since when every attempt has failed; after 5 days the target is disabled.
    #[schema(required = true)]
    pub failing_since: Option<DateTime<Utc>>,
    /// When the next attempt is due, while waiting for a retry.
    #[schema(required = true)]
    pub next_attempt_at: Option<DateTime<Utc>>,
}

/// A webhook subscription (its secret is never shown again after creation or rotation).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Webhook {
    pub id: Uuid,
    #[schema(example = "https://hooks.example.com/reviewlock")]
    pub url: String,
    /// The event types it wants, or prefixes (`review.*`); empty for every event.
    #[schema(example = json!(["review.*"]))]
    pub events: Vec<String>,
    #[schema(required = true, example = "Spawn a reviser on rejections")]
    pub description: Option<String>,
    /// Whether events are delivered. A webhook whose receiver answered `410 Gone`, or that
    /// failed for 5 days, is disabled (`disabled_reason`); enabling it resumes from its cursor.
    pub enabled: bool,
    #[schema(required = true)]
    pub disabled_reason: Option<DisabledReason>,
    /// Until when the previous secret also signs, after a rotation.
    #[schema(required = true)]
    pub previous_secret_expires_at: Option<DateTime<Utc>>,
    pub delivery: DeliveryState,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A new webhook subscription, with its signing secret shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub info: Webhook,
    /// The signing secret (`whsec_` and base64), for Standard Webhooks' verification. It is
    /// stored sealed and cannot be shown again: a replay of the request (same
    /// `Idempotency-Key`) answers 200 with the webhook without it.
    #[schema(example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIjK=")]
    pub secret: String,
}

/// The new signing secret of a webhook, shown only in this response.
#[derive(Debug, Serialize, ToSchema)]
pub struct RotatedSecret {
    #[schema(example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIjK=")]
    pub secret: String,
    /// Until when the previous secret also signs (both signatures are sent meanwhile).
    pub previous_secret_expires_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    pub items: Vec<Webhook>,
}

/// A new webhook subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookInput {
    /// Where events are POSTed: `https` (unless the server allows `http`), on a public address
    /// (unless the server allows private ones).
    #[schema(example = "https://hooks.example.com/reviewlock", max_length = 2048)]
    pub url: String,
    /// Event types or prefixes (`review.*`); absent or empty for every event.
    #[serde(default)]
    #[schema(example = json!(["review.*"]))]
    pub events: Vec<String>,
    #[schema(max_length = 200)]
    pub description: Option<String>,
    /// Deliver the events after this seq too (a backfill); absent: from the next event on.
    #[schema(minimum = 0, example = 0)]
    pub after: Option<i64>,
}

/// A change to a webhook subscription: the fields given change, the others stay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookPatch {
    #[schema(max_length = 2048)]
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    #[schema(max_length = 200)]
    pub description: Option<String>,
    /// `true` re-enables a disabled webhook, which resumes from its cursor.
    pub enabled: Option<bool>,
}

/// A rotation of a webhook's signing secret.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RotationInput {
    /// How long the previous secret goes on signing beside the new one, in seconds (0 to 7
    /// days); 24 hours when absent.
    #[schema(minimum = 0, maximum = 604800, example = 86400)]
    pub grace_seconds: Option<i64>,
}

/// A forge that shows each version's state as a commit status on its `ref` (its token is
/// never shown).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Forge {
    #[schema(example = "github")]
    pub name: String,
    pub kind: ForgeKind,
    /// The forge's API (GitHub Enterprise's `https://ghe.example.com/api/v3`, a self-managed
    /// GitLab's `https://gitlab.example.com/api/v4`).
    #[schema(example = "https://api.github.com")]
    pub api_url: String,
    /// GitHub's `owner/name`, or GitLab's project id or path.
    #[schema(example = "acme/web")]
    pub repository: String,
    /// The status's context (GitHub) or name (GitLab): the check branch protection requires.
    #[schema(example = "reviewlock")]
    pub context: String,
    pub enabled: bool,
    #[schema(required = true)]
    pub disabled_reason: Option<DisabledReason>,
    pub delivery: DeliveryState,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ForgeList {
    pub items: Vec<Forge>,
}

/// A forge's settings, all of them (a `PUT`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgeInput {
    pub kind: ForgeKind,
    /// The forge's API; absent: `https://api.github.com` or `https://gitlab.com/api/v4`.
    #[schema(max_length = 2048)]
    pub api_url: Option<String>,
    /// GitHub's `owner/name`, or GitLab's project id or path (`group/project`).
    #[schema(example = "acme/web", max_length = 300)]
    pub repository: String,
    /// A token that may set commit statuses (GitHub: `repo:status` or a fine-grained token
    /// with "Commit statuses: write"; GitLab: `api` scope, Developer role). Stored sealed,
    /// never shown or logged.
    #[schema(example = "ghp_…", max_length = 1000)]
    pub token: String,
    /// The status's context or name; `reviewlock` when absent.
    #[schema(example = "reviewlock", max_length = 100)]
    pub context: Option<String>,
    /// `false` pauses the statuses; `true` (the default) sends them, resuming from the cursor.
    pub enabled: Option<bool>,
}

/// One delivery attempt, for the delivery log.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveryAttempt {
    pub id: Uuid,
    /// The event delivered; null for a test delivery.
    #[schema(required = true, example = 42)]
    pub seq: Option<i64>,
    /// The event's `type` (`webhook.test` for a test delivery).
    pub event_type: String,
    /// The `webhook-id` sent: the same on every attempt at one event.
    #[schema(example = "msg_0b5e4f0c3a9e4b7d8c2a1e6f0b1d3c5a_42")]
    pub webhook_id: String,
    /// 1 for the first attempt at the event, 2 for its first retry…
    #[schema(example = 1)]
    pub attempt: i32,
    /// Sent by `POST …/retry` (or a test delivery), outside the schedule.
    pub manual: bool,
    pub at: DateTime<Utc>,
    /// A 2xx answered (for commit statuses, every status of the event).
    pub succeeded: bool,
    /// The response's status; null when none came.
    #[schema(required = true, example = 200)]
    pub response_status: Option<i32>,
    #[schema(example = 84)]
    pub latency_ms: i32,
    /// The start of the response's body (at most 1 KiB).
    #[schema(required = true)]
    pub response_body: Option<String>,
    /// Why no response came (refused, timed out, a private address…).
    #[schema(required = true)]
    pub error: Option<String>,
}

/// A page of the delivery log, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    pub items: Vec<DeliveryAttempt>,
    /// The `cursor` of the next (older) page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// What a retry did: sent the event again now (`attempt`), or, for an event not yet
/// delivered, made its target's next attempt due now (`scheduled`).
#[derive(Debug, Serialize, ToSchema)]
pub struct RetryOutcome {
    /// The attempt made now, for an event the target had already delivered.
    #[schema(required = true)]
    pub attempt: Option<DeliveryAttempt>,
    /// True when the event is still ahead of the target's cursor: its delivery is now due,
    /// in order, by the delivery workers.
    pub scheduled: bool,
}
