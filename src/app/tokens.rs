//! Tokens: a team's, and the server-wide admin's.

use uuid::Uuid;

use crate::app::actor::{Actor, team_not_found};
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::auth;
use crate::domain::Scope;
use crate::domain::TeamId;
use crate::error::{Error, Result};
use crate::resources::events::{EventData, TokenCreated, TokenRevoked};
use crate::resources::{CallingToken, CreatedToken};
use crate::store::events::NewEvent;
use crate::store::tokens::TokenRow;
use crate::store::{Db, agents, teams, tokens};

/// Creates a team token; the secret is returned here once and stored only as its hash.
#[tracing::instrument(skip_all, fields(%team, scope = scope.as_str()), err(level = "debug"))]
pub async fn create_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    name: &str,
    scope: Scope,
    agent: Option<&str>,
) -> Result<Outcome<CreatedToken>> {
    actor.require(team, Scope::Admin)?;
    match (scope, agent) {
        (Scope::Agent, None) => return Err(Error::invalid("agent", "an `agent` token names its agent")),
        (Scope::Agent, Some(_)) | (_, None) => {}
        (_, Some(_)) => return Err(Error::invalid("agent", "only an `agent` token names an agent")),
    }
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        teams::find(tx, team).await?.ok_or_else(|| team_not_found(team))?;
        if let Some(agent) = agent
            && agents::find(tx, team, agent).await?.is_none()
        {
            return Err(Error::invalid("agent", format!("agent '{agent}' does not exist in team '{team}'")));
        }
        let secret = auth::new_secret();
        let token = tokens::insert(tx, Some(team), name, scope, agent, &auth::hash_secret(&secret)).await?;
        let data = EventData::TokenCreated(TokenCreated {
            token_id: token.id,
            name: token.name.clone(),
            scope,
            agent: token.agent_id.clone(),
        });
        let event = NewEvent { artifact: None, actor: None, data };
        let info = crate::resources::Token::from(token);
        // A replay answers the token without its secret, which is never stored in clear.
        Done::new(Change::Created, CreatedToken { info: info.clone(), token: secret }, event)
            .replayed_as(Change::Updated, info)
    })
    .await
}

pub async fn list_tokens(pool: &Db, actor: &Actor, team: &TeamId) -> Result<Vec<TokenRow>> {
    actor.require(team, Scope::Admin)?;
    pool.read(async |conn| {
        teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok(tokens::list(conn, team).await?)
    })
    .await
}

/// Revokes a token with immediate effect.
#[tracing::instrument(skip_all, fields(%team, token = %id), err(level = "debug"))]
pub async fn revoke_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: Uuid,
) -> Result<Outcome<()>> {
    actor.require(team, Scope::Admin)?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let token = tokens::revoke(&mut w.tx, team, id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("token '{id}' does not exist in team '{team}'")))?;
        let data = EventData::TokenRevoked(TokenRevoked {
            token_id: token.id,
            name: token.name,
            scope: token.scope,
        });
        let event = NewEvent { artifact: None, actor: None, data };
        Ok(Done::new(Change::Removed, (), event))
    })
    .await
}

/// The token a request is made with, as `team` sees it (another team's token: not found).
pub fn calling(actor: &Actor, team: &TeamId) -> Result<CallingToken> {
    actor.require(team, Scope::Read)?;
    Ok(CallingToken {
        id: actor.token_id,
        name: actor.token_name.clone(),
        scope: actor.scope,
        agent: actor.agent.clone(),
        server_wide: actor.is_server_admin(),
    })
}

/// Server-wide tokens (tokens of no team) are the server-wide admin's alone.
fn require_server_admin(actor: &Actor) -> Result<()> {
    if actor.is_server_admin() {
        Ok(())
    } else {
        Err(Error::Forbidden("only a server-wide admin token manages server-wide tokens".into()))
    }
}

/// Creates a server-wide admin token (for every team), e.g. to replace the bootstrap token;
/// the secret is returned here once. No team's log records it: the service log does.
#[tracing::instrument(skip_all, err(level = "debug"))]
pub async fn create_server_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    name: &str,
) -> Result<Outcome<CreatedToken>> {
    require_server_admin(actor)?;
    unit::run(pool, actor, pre, None, async |w| {
        let secret = auth::new_secret();
        let hash = auth::hash_secret(&secret);
        let token = tokens::insert(&mut w.tx, None, name, Scope::Admin, None, &hash).await?;
        tracing::info!(token = %token.id, name = %token.name, by = %actor.token_name, "created a server-wide token");
        let info = crate::resources::Token::from(token);
        Done::server_wide(Change::Created, CreatedToken { info: info.clone(), token: secret })
            .replayed_as(Change::Updated, info)
    })
    .await
}

/// The live server-wide tokens, without secrets (the one set by `REVIEWLOCK_ADMIN_TOKEN` is
/// configuration, not a stored token, and is not among them).
pub async fn list_server_tokens(pool: &Db, actor: &Actor) -> Result<Vec<TokenRow>> {
    require_server_admin(actor)?;
    pool.read(async |conn| Ok(tokens::list_server_wide(conn).await?)).await
}

/// Revokes a server-wide token with immediate effect (a token may revoke itself).
#[tracing::instrument(skip_all, fields(token = %id), err(level = "debug"))]
pub async fn revoke_server_token(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    id: Uuid,
) -> Result<Outcome<()>> {
    require_server_admin(actor)?;
    unit::run(pool, actor, pre, None, async |w| {
        let token = tokens::revoke_server_wide(&mut w.tx, id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("no server-wide token has id '{id}'")))?;
        tracing::info!(token = %token.id, name = %token.name, by = %actor.token_name, "revoked a server-wide token");
        Ok(Done::server_wide(Change::Removed, ()))
    })
    .await
}
