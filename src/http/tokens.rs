use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::app::actor::Actor;
use crate::app::tokens;
use crate::app::unit::Preconditions;
use crate::domain::Scope;
use crate::domain::TeamId;
use crate::error::Result;
use crate::http::extract::{Json, Path};
use crate::http::preconditions::reply;
use crate::http::state::AppState;
use crate::resources::{CallingToken, CreatedToken, Token};
use crate::validate::{Fields, MAX_NAME};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_token, list_tokens))
        .routes(routes!(revoke_token))
        .routes(routes!(calling_token))
        .routes(routes!(create_server_token, list_server_tokens))
        .routes(routes!(revoke_server_token))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenInput {
    /// Who or what holds the token, e.g. `orchestrator` or `alice`.
    #[schema(max_length = 200)]
    pub name: String,
    pub scope: Scope,
    /// For scope `agent`: the agent the token acts as (and only for that scope).
    pub agent: Option<String>,
}

/// A new server-wide token: an admin token of every team.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ServerTokenInput {
    /// Who or what holds the token, e.g. `ops-alice`.
    #[schema(max_length = 200)]
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenList {
    pub items: Vec<Token>,
}

/// Create a team token.
///
/// The secret is in the response once, and stored only as a hash. Scopes: `read`, `coordinator`
/// (read and write the protocol), `admin` (also tokens and policy), `user` (read, resolve
/// deadlocks, lift lockouts), `agent` (acts as one agent).
#[utoipa::path(post, path = "/v1/teams/{team}/tokens", tag = "tokens",
    params(("team" = String, Path, description = "team id")),
    request_body = TokenInput,
    responses((status = 201, description = "created; `token` is the secret", body = CreatedToken),
              (status = 200, description = "a replay of the creation (same `Idempotency-Key`): the token without its secret, which is not stored", body = Token)))]
async fn create_token(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(team): Path<TeamId>,
    Json(input): Json<TokenInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("name", &input.name, MAX_NAME);
    fields.finish()?;
    let (name, agent) = (input.name.trim(), input.agent.as_deref());
    let outcome = tokens::create_token(&state.pool, &actor, &pre, &team, name, input.scope, agent).await?;
    // A secret found to name no token a moment ago names this one now.
    state.auth.tokens.clear();
    Ok(reply(outcome))
}

/// The team's live tokens.
///
/// Their names, scopes and ids, never their secrets. Revoked tokens are not listed.
#[utoipa::path(get, path = "/v1/teams/{team}/tokens", tag = "tokens",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the live tokens", body = TokenList)))]
async fn list_tokens(
    State(state): State<AppState>,
    actor: Actor,
    Path(team): Path<TeamId>,
) -> Result<axum::Json<TokenList>> {
    let tokens = tokens::list_tokens(&state.pool, &actor, &team).await?;
    Ok(axum::Json(TokenList { items: tokens.into_iter().map(Into::into).collect() }))
}

/// Revoke a team token.
///
/// Refused at once by the replica that answers, and within the token cache's TTL
/// (`REVIEWLOCK_TOKEN_CACHE_TTL`, 1 s by default) by the others. Open event streams of the token
/// end.
#[utoipa::path(delete, path = "/v1/teams/{team}/tokens/{id}", tag = "tokens",
    params(("team" = String, Path, description = "team id"), ("id" = Uuid, Path, description = "token id")),
    responses((status = 204, description = "revoked")))]
async fn revoke_token(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path((team, id)): Path<(TeamId, Uuid)>,
) -> Result<Response> {
    let outcome = tokens::revoke_token(&state.pool, &actor, &pre, &team, id).await?;
    state.auth.tokens.clear();
    Ok(reply(outcome))
}

/// The token this request is made with.
///
/// Its name, scope and agent, as the team sees it: what a page or a tool may offer its holder
/// (a `user` token resolves deadlocks and lifts lockouts). Never its secret. Any token of the
/// team, or a server-wide one.
#[utoipa::path(get, path = "/v1/teams/{team}/token", tag = "tokens",
    params(("team" = String, Path, description = "team id")),
    responses((status = 200, description = "the calling token", body = CallingToken)))]
async fn calling_token(actor: Actor, Path(team): Path<TeamId>) -> Result<axum::Json<CallingToken>> {
    Ok(axum::Json(tokens::calling(&actor, &team)?))
}

/// Create a server-wide admin token.
///
/// An admin token of every team (server-wide admin only), e.g. to replace the bootstrap token. The
/// secret is in the response once.
#[utoipa::path(post, path = "/v1/tokens", tag = "tokens",
    request_body = ServerTokenInput,
    responses((status = 201, description = "created; `token` is the secret", body = CreatedToken),
              (status = 200, description = "a replay of the creation (same `Idempotency-Key`): the token without its secret, which is not stored", body = Token)))]
async fn create_server_token(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Json(input): Json<ServerTokenInput>,
) -> Result<Response> {
    let mut fields = Fields::new();
    fields.text("name", &input.name, MAX_NAME);
    fields.finish()?;
    let outcome = tokens::create_server_token(&state.pool, &actor, &pre, input.name.trim()).await?;
    state.auth.tokens.clear();
    Ok(reply(outcome))
}

/// The live server-wide tokens.
///
/// The bootstrap token among them; server-wide admin only. The token set by
/// `REVIEWLOCK_ADMIN_TOKEN` is configuration, not a stored token, and is not listed.
#[utoipa::path(get, path = "/v1/tokens", tag = "tokens",
    responses((status = 200, description = "the live server-wide tokens", body = TokenList)))]
async fn list_server_tokens(State(state): State<AppState>, actor: Actor) -> Result<axum::Json<TokenList>> {
    let tokens = tokens::list_server_tokens(&state.pool, &actor).await?;
    Ok(axum::Json(TokenList { items: tokens.into_iter().map(Into::into).collect() }))
}

/// Revoke a server-wide token.
///
/// Server-wide admin only; a token may revoke itself. As for team tokens, other replicas refuse it
/// within the token cache's TTL.
#[utoipa::path(delete, path = "/v1/tokens/{id}", tag = "tokens",
    params(("id" = Uuid, Path, description = "token id")),
    responses((status = 204, description = "revoked")))]
async fn revoke_server_token(
    State(state): State<AppState>,
    actor: Actor,
    pre: Preconditions,
    Path(id): Path<Uuid>,
) -> Result<Response> {
    let outcome = tokens::revoke_server_token(&state.pool, &actor, &pre, id).await?;
    state.auth.tokens.clear();
    Ok(reply(outcome))
}
