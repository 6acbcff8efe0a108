//! Bearer tokens and what each scope may do (PROTOCOL §5).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::Error;

/// What a token may do. `read` ⊂ `coordinator` ⊂ `admin`; `user` is `read` plus resolving
/// escalations and lifting lockouts; `agent` is `read` plus acting as its one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Read,
    Coordinator,
    User,
    Admin,
    /// Bound to one agent: it may submit versions that agent authors, reviews it gives and
    /// checks about it, and read its team.
    Agent,
}

impl Scope {
    pub const ALL: [Scope; 5] = [Scope::Read, Scope::Coordinator, Scope::User, Scope::Admin, Scope::Agent];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Coordinator => "coordinator",
            Scope::User => "user",
            Scope::Admin => "admin",
            Scope::Agent => "agent",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }

    /// Whether a token of this scope may do what `needed` guards.
    pub fn allows(self, needed: Scope) -> bool {
        match needed {
            Scope::Read => true,
            Scope::Coordinator => matches!(self, Scope::Coordinator | Scope::Admin),
            Scope::Admin => self == Scope::Admin,
            Scope::User => self == Scope::User,
            Scope::Agent => self == Scope::Agent,
        }
    }
}

/// A request's `Idempotency-Key` with the fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub key: String,
    /// SHA-256 of the method, the path and the body.
    pub fingerprint: Vec<u8>,
}

/// Who is calling: the token that authenticated the request, and what the request asserts.
#[derive(Debug, Clone)]
pub struct Caller {
    /// `None` for the admin token from `REVIEWLOCK_ADMIN_TOKEN`, which has no row.
    pub token_id: Option<Uuid>,
    pub token_name: String,
    /// `None` for a server-wide admin token, which may act on any team.
    pub team: Option<String>,
    pub scope: Scope,
    /// The agent an `agent` token acts as.
    pub agent: Option<String>,
    pub idempotency: Option<IdempotencyKey>,
    /// The `If-Match` header of a write to an artifact.
    pub if_match: Option<String>,
}

impl Caller {
    /// May this caller do what `needed` guards on `team`? Another team's token gets
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

    /// May this caller act as `agent` on `team`? A coordinator may name any agent; an agent
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

    /// Who owns the request's idempotency keys: its token (the nil id for the configured admin).
    pub fn key_owner(&self) -> Uuid {
        self.token_id.unwrap_or(Uuid::nil())
    }

    pub fn is_server_admin(&self) -> bool {
        self.team.is_none() && self.scope == Scope::Admin
    }
}

pub fn team_not_found(team: &str) -> Error {
    Error::NotFound(format!("team '{team}' does not exist"))
}

/// A new random secret: `rl_` and 64 hex digits (256 bits).
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    format!("rl_{}", hex::encode(bytes))
}

/// Secrets are stored and looked up only by their SHA-256, so a lookup compares no secret bytes.
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
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
        let caller = Caller {
            token_id: None,
            token_name: "t".into(),
            team: Some("a".into()),
            scope: Scope::Admin,
            agent: None,
            idempotency: None,
            if_match: None,
        };
        assert_eq!(caller.require("b", Scope::Read).unwrap_err().code(), "not_found");
        assert!(caller.require("a", Scope::Admin).is_ok());
        assert_eq!(caller.require("a", Scope::User).unwrap_err().code(), "forbidden");
    }

    #[test]
    fn secrets_are_random_and_hash_stably() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(a.starts_with("rl_") && a.len() == 67);
        assert_eq!(hash_secret(&a), hash_secret(&a));
        assert_ne!(hash_secret(&a), hash_secret(&b));
    }
}
