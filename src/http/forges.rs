//! Forges for commit statuses, and their delivery log (docs/integrations.md).

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::app::actor::Actor;
use crate::app::unit::Preconditions;
use crate::app::{forges, targets};
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Json, Path, Query};
use crate::http::paging::PageQuery;
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::{DeliveryList, Forge, ForgeInput, ForgeList, RetryOutcome};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_forges))
        .routes(routes!(put_forge, get_forge, delete_forge))
        .routes(routes!(forge_deliveries))
        .routes(routes!(retry_forge_delivery))
}

/// The team's forges.
///
/// Never a token. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/forges", tag = "forges",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the forges", body = ForgeList)))]
async fn list_forges(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
) -> Result<axum::Json<ForgeList>> {
    Ok(axum::Json(ForgeList { items: forges::list(&state.pool, &actor, &team).await? }))
}

/// Set up a forge for commit statuses, or replace its settings.
///
/// From the next event on, every version with a full commit SHA as `ref` gets a status on it:
/// `pending` in review, `success` approved, `failure` rejected, deadlocked or superseded.
/// Required by branch protection, it makes merging an unapproved commit impossible
/// (docs/integrations.md). The token is stored sealed and never shown. Admin.
#[utoipa::path(put, path = "/v1/teams/{team}/forges/{name}", tag = "forges",
    params(("team" = String, Path, description = "team id"), ("name" = String, Path, description = "the forge's name in the team, e.g. `github`")),
    request_body = ForgeInput,
    responses((status = 201, description = "set up", body = Forge),
              (status = 200, description = "its settings replaced", body = Forge)))]
async fn put_forge(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, name)): Path<(TeamId, String)>,
    Json(input): Json<ForgeInput>,
) -> Result<Response> {
    Ok(reply(forges::put(&state.pool, &state.outbox, &actor, &pre, &team, &name, &input).await?))
}

/// A forge.
///
/// Its settings (not its token) and where it is in the log. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/forges/{name}", tag = "forges",
    params(("team" = String, Path, description = "team id"), ("name" = String, Path, description = "forge name")),
    responses((status = 200, description = "the forge", body = Forge)))]
async fn get_forge(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, name)): Path<(TeamId, String)>,
) -> Result<axum::Json<Forge>> {
    Ok(axum::Json(forges::view(&forges::find(&state.pool, &actor, &team, &name).await?)))
}

/// Remove a forge.
///
/// No more statuses are posted; those posted stay on the forge. Admin.
#[utoipa::path(delete, path = "/v1/teams/{team}/forges/{name}", tag = "forges",
    params(("team" = String, Path, description = "team id"), ("name" = String, Path, description = "forge name")),
    responses((status = 204, description = "removed")))]
async fn delete_forge(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, name)): Path<(TeamId, String)>,
) -> Result<Response> {
    Ok(reply(forges::delete(&state.pool, &actor, &pre, &team, &name).await?))
}

/// A forge's delivery log.
///
/// Every attempt to post an event's statuses, newest first; kept 30 days. Admin.
#[utoipa::path(get, path = "/v1/teams/{team}/forges/{name}/deliveries", tag = "forges",
    params(("team" = String, Path, description = "team id"), ("name" = String, Path, description = "forge name"),
           PageQuery),
    responses((status = 200, description = "a page of attempts", body = DeliveryList)))]
async fn forge_deliveries(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, name)): Path<(TeamId, String)>,
    Query(query): Query<PageQuery>,
) -> Result<axum::Json<DeliveryList>> {
    let target = forges::find(&state.pool, &actor, &team, &name).await?;
    let (before, limit) = query.page()?;
    Ok(axum::Json(targets::deliveries(&state.pool, &target, before, limit).await?))
}

/// Retry a delivery.
///
/// An event whose statuses were posted is posted again now (`attempt`); one not yet posted is
/// made due now, in order (`scheduled`). Admin.
#[utoipa::path(post, path = "/v1/teams/{team}/forges/{name}/deliveries/{delivery}/retry", tag = "forges",
    params(("team" = String, Path, description = "team id"), ("name" = String, Path, description = "forge name"),
           ("delivery" = Uuid, Path, description = "an attempt's id, from the delivery log")),
    responses((status = 200, description = "posted again, or scheduled", body = RetryOutcome)))]
async fn retry_forge_delivery(
    State(state): State<AppState>,
    actor: Actor,
    Path((team, name, delivery)): Path<(TeamId, String, Uuid)>,
) -> Result<axum::Json<RetryOutcome>> {
    let target = forges::find(&state.pool, &actor, &team, &name).await?;
    Ok(axum::Json(targets::retry(&state.outbox, &state.pool, &target, delivery).await?))
}
