//! Webhook subscriptions and their delivery log (docs/webhooks.md).

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{deliver, targets, webhooks};
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Json, Path, Query, parse};
use crate::http::paging::PageQuery;
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::{
    CreatedWebhook, DeliveryAttempt, DeliveryList, RetryOutcome, RotatedSecret, RotationInput, Webhook,
    WebhookInput, WebhookList, WebhookPatch,
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_webhook, list_webhooks))
        .routes(routes!(get_webhook, update_webhook, delete_webhook))
        .routes(routes!(rotate_secret))
        .routes(routes!(test_webhook))
        .routes(routes!(webhook_deliveries))
        .routes(routes!(retry_webhook_delivery))
}

/// Subscribe a URL to the team's events.
///
/// Events are POSTed as Standard Webhooks: signed with the secret in this response, which is
/// shown only here. Deliveries start at the next event (or after `after`, for a backfill), in
/// seq order, at least once, retried on failure (docs/webhooks.md). Admin.
#[utoipa::path(post, path = "/v1/teams/{team}/webhooks", tag = "webhooks",
    params(("team" = String, Path, description = "team id")),
    request_body = WebhookInput,
    responses((status = 201, description = "subscribed; `secret` is the signing secret", body = CreatedWebhook),
              (status = 200, description = "a replay of the creation (same `Idempotency-Key`): the webhook without its secret", body = Webhook)))]
async fn create_webhook(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(team): Path<TeamId>,
    Json(input): Json<WebhookInput>,
) -> Result<Response> {
    Ok(reply(webhooks::create(&state.pool, &state.outbox, &actor, &pre, &team, &input).await?))
}

/// The team's webhook subscriptions.
///
/// Each with its delivery state; never a secret. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/webhooks", tag = "webhooks",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the subscriptions", body = WebhookList)))]
async fn list_webhooks(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
) -> Result<axum::Json<WebhookList>> {
    Ok(axum::Json(WebhookList { items: webhooks::list(&state.pool, &actor, &team).await? }))
}

/// A webhook subscription.
///
/// Its URL, filters, whether it is enabled (and why not), and where it is in the log. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/webhooks/{id}", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id")),
    responses((status = 200, description = "the subscription", body = Webhook)))]
async fn get_webhook(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, id)): Path<(TeamId, Uuid)>,
) -> Result<axum::Json<Webhook>> {
    Ok(axum::Json(webhooks::view(&webhooks::find(&state.pool, &actor, &team, id).await?)))
}

/// Change a webhook subscription.
///
/// The fields given change. `enabled: true` re-enables a disabled subscription, which resumes
/// from its cursor: nothing was skipped while it was disabled. Admin.
#[utoipa::path(patch, path = "/v1/teams/{team}/webhooks/{id}", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id")),
    request_body = WebhookPatch,
    responses((status = 200, description = "changed", body = Webhook)))]
async fn update_webhook(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, id)): Path<(TeamId, Uuid)>,
    Json(patch): Json<WebhookPatch>,
) -> Result<Response> {
    Ok(reply(webhooks::update(&state.pool, &state.outbox, &actor, &pre, &team, id, &patch).await?))
}

/// Delete a webhook subscription.
///
/// With its delivery log. Admin.
#[utoipa::path(delete, path = "/v1/teams/{team}/webhooks/{id}", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id")),
    responses((status = 204, description = "deleted")))]
async fn delete_webhook(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, id)): Path<(TeamId, Uuid)>,
) -> Result<Response> {
    Ok(reply(webhooks::delete(&state.pool, &actor, &pre, &team, id).await?))
}

/// Rotate a webhook's signing secret.
///
/// The new secret is shown only in this response. The previous one goes on signing beside it
/// (two signatures in `webhook-signature`) for `grace_seconds`, 24 hours by default, so the
/// receiver can switch without losing an event. Admin.
#[utoipa::path(post, path = "/v1/teams/{team}/webhooks/{id}/rotate", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id")),
    request_body(content = Option<RotationInput>),
    responses((status = 200, description = "rotated; `secret` is the new signing secret", body = RotatedSecret)))]
async fn rotate_secret(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, id)): Path<(TeamId, Uuid)>,
    body: axum::body::Bytes,
) -> Result<Response> {
    // The body is optional: none rotates with the default grace period.
    let input: RotationInput =
        if body.iter().all(u8::is_ascii_whitespace) { RotationInput::default() } else { parse(&body)? };
    Ok(reply(webhooks::rotate(&state.pool, &state.outbox, &actor, &pre, &team, id, &input).await?))
}

/// Send a test delivery.
///
/// POSTs `{"type": "webhook.test", "timestamp", "data": {"webhook", "team"}}`, signed as any
/// delivery, now, and answers the attempt (also in the delivery log). Admin.
#[utoipa::path(post, path = "/v1/teams/{team}/webhooks/{id}/test", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id")),
    responses((status = 200, description = "the attempt: see `succeeded`", body = DeliveryAttempt)))]
async fn test_webhook(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, id)): Path<(TeamId, Uuid)>,
) -> Result<axum::Json<DeliveryAttempt>> {
    let target = webhooks::find(&state.pool, &actor, &team, id).await?;
    let sent = deliver::resend(&state.outbox, &state.pool, &target, None).await?;
    Ok(axum::Json(targets::attempt(sent)))
}

/// A webhook's delivery log.
///
/// Every attempt, newest first, with its response's status, latency and the start of its body;
/// kept 30 days. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/webhooks/{id}/deliveries", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id"),
           PageQuery),
    responses((status = 200, description = "a page of attempts", body = DeliveryList)))]
async fn webhook_deliveries(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, id)): Path<(TeamId, Uuid)>,
    Query(query): Query<PageQuery>,
) -> Result<axum::Json<DeliveryList>> {
    let target = webhooks::find(&state.pool, &actor, &team, id).await?;
    let (before, limit) = query.page()?;
    Ok(axum::Json(targets::deliveries(&state.pool, &target, before, limit).await?))
}

/// Retry a delivery.
///
/// An event the webhook already delivered is sent again now, with the same `webhook-id`
/// (`attempt`); one it has not delivered yet is made due now, in order (`scheduled`). Admin.
#[utoipa::path(post, path = "/v1/teams/{team}/webhooks/{id}/deliveries/{delivery}/retry", tag = "webhooks",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "webhook id"),
           ("delivery" = Uuid, Path, description = "an attempt's id, from the delivery log")),
    responses((status = 200, description = "sent again, or scheduled", body = RetryOutcome)))]
async fn retry_webhook_delivery(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, id, delivery)): Path<(TeamId, Uuid, Uuid)>,
) -> Result<axum::Json<RetryOutcome>> {
    let target = webhooks::find(&state.pool, &actor, &team, id).await?;
    Ok(axum::Json(targets::retry(&state.outbox, &state.pool, &target, delivery).await?))
}
