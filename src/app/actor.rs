//! Who acts: the token behind a request, as the use cases see it, and what its scope allows
//! (PROTOCOL §5). How a request proves it (bearer tokens) is `auth`'s and `http`'s business.

use uuid::Uuid;

use crate::domain::Scope;
use crate::error::Error;

/// Who acts: the token that authenticated the request.
#[derive(Debug, Clone)]
pub struct Actor {
    /// `None` for the admin token from `REVIEWLOCK_ADMIN_TOKEN`, which has no row.
    pub token_id: Option<Uuid>,
    pub token_name: String,
    /// `None` for a server-wide admin token, which may act on any team.
    pub team: Option<String>,
    pub scope: Scope,
    /// The agent an `agent` token acts as.
    pub agent: Option<String>,
    /// Who owns the request's idempotency keys: its token's id, or for the configured admin
    /// token, an id made of its secret's hash, so a rotated admin token never replays the
    /// responses of the one before.
    pub key_owner: Uuid,
}

impl Actor {
    /// May this actor do what `needed` guards on `team`? Another team's token gets
    /// `not_found`, as if the team did not exist; a missing scope gets `forbidden`.
    pub fn require(&self, team: &str, needed: Scope) -> Result<(), Error> {
        if self.team.as_deref().is_some_and(|t| t != team) {
            return Err(team_not_found(team));
        }
        if !self.scope.allows(needed) {
            return Err(Error::Forbidden(format!(
                "this needs a token with scope '{}'; this token has '{}'",
                needed.as_str(),
                self.scope.as_str()
            )));
        }
        Ok(())
    }

    /// May this actor act as `agent` on `team`? A coordinator may name any agent; an agent
    /// token only its own (anything else is 403 `forbidden`).
    pub fn require_actor(&self, team: &str, agent: &str) -> Result<(), Error> {
        match (&self.scope, &self.agent) {
            (Scope::Agent, Some(own)) => {
                self.require(team, Scope::Read)?;
                if own == agent {
                    Ok(())
                } else {
                    Err(Error::Forbidden(format!("this token acts only as agent '{own}', not '{agent}'")))
                }
            }
            _ => self.require(team, Scope::Coordinator),
        }
    }

    /// May this actor credit these agents on a version it writes? As [`Actor::require_actor`]
    /// for the author; an agent token credits only its own agent, since one rejection locks out
    /// everyone credited: crediting others is for coordinator tokens.
    pub fn require_credits<'a>(
        &self,
        team: &str,
        author: &str,
        contributors: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), Error> {
        self.require_actor(team, author)?;
        if let (Scope::Agent, Some(own)) = (&self.scope, &self.agent)
            && let Some(other) = contributors.into_iter().find(|c| c != own)
        {
            return Err(Error::Forbidden(format!(
                "this token acts only as agent '{own}' and cannot credit '{other}'; a coordinator token credits other agents"
            )));
        }
        Ok(())
    }

    pub fn is_server_admin(&self) -> bool {
        self.team.is_none() && self.scope == Scope::Admin
    }
}

pub fn team_not_found(team: &str) -> Error {
    Error::NotFound(format!("team '{team}' does not exist"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_nest_as_the_protocol_says() {
        use Scope::*;
        for s in [Read, Coordinator, User, Admin] {
            assert!(s.allows(Read), "{s:?} reads");
        }
        assert!(Coordinator.allows(Coordinator) && Admin.allows(Coordinator));
        assert!(!Read.allows(Coordinator) && !User.allows(Coordinator));
        assert!(Admin.allows(Admin) && !Coordinator.allows(Admin) && !User.allows(Admin));
        assert!(User.allows(User));
        assert!(!Admin.allows(User) && !Coordinator.allows(User) && !Read.allows(User));
    }

    #[test]
    fn another_teams_token_sees_not_found() {
        let actor = Actor {
            token_id: None,
            token_name: "t".into(),
            team: Some("a".into()),
            scope: Scope::Admin,
            agent: None,
            key_owner: Uuid::nil(),
        };
        assert_eq!(actor.require("b", Scope::Read).unwrap_err().code().as_str(), "not_found");
        assert!(actor.require("a", Scope::Admin).is_ok());
        assert_eq!(actor.require("a", Scope::User).unwrap_err().code().as_str(), "forbidden");
    }
}
