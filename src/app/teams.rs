//! Teams: create, update and read one.

use crate::app::actor::{Actor, team_not_found};
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::Scope;
use crate::domain::{Code, Profile};
use crate::error::{Error, Result};
use crate::resources::Team;
use crate::resources::events::{EventData, TeamChanged};
use crate::store::events::NewEvent;
use crate::store::teams::TeamRow;
use crate::store::{Db, teams};

/// Changes to a team; `None` keeps the current value (or the default on create).
#[derive(Debug, Default)]
pub struct TeamChanges {
    pub display_name: Option<String>,
    pub profile: Option<Profile>,
    pub required_approvals: Option<i32>,
}

/// Creates the team or updates it. Only a server-wide admin creates teams.
#[tracing::instrument(skip_all, fields(team = %id), err(level = "debug"))]
pub async fn put_team(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    id: &str,
    changes: TeamChanges,
) -> Result<Outcome<Team>> {
    unit::run(pool, actor, pre, Some(id), async |w| {
        let tx = &mut w.tx;
        let (team, change) = match teams::find_for_update(tx, id).await? {
            Some(mut team) => {
                actor.require(id, Scope::Admin)?;
                team.display_name = changes.display_name.clone().or(team.display_name);
                team.profile = changes.profile.unwrap_or(team.profile);
                team.required_approvals = changes.required_approvals.unwrap_or(team.required_approvals);
                (teams::update(tx, &team).await?, Change::Updated)
            }
            None => {
                if !actor.is_server_admin() {
                    // A team token never sees another team; a missing one looks the same.
                    actor.require(id, Scope::Admin)?;
                    return Err(Error::Forbidden("only the server-wide admin token creates teams".into()));
                }
                let new = TeamRow {
                    id: id.to_string(),
                    display_name: changes.display_name.clone(),
                    profile: changes.profile.unwrap_or(Profile::Standard),
                    required_approvals: changes.required_approvals.unwrap_or(1),
                    created_at: Default::default(),
                    updated_at: Default::default(),
                };
                // `None`: another request created it between our read and insert; the client retries.
                let created = teams::insert(tx, &new).await?.ok_or_else(|| {
                    Error::refused(Code::Conflict, "the team was created concurrently; retry")
                })?;
                (created, Change::Created)
            }
        };
        let changed = TeamChanged {
            team: team.id.clone(),
            display_name: team.display_name.clone(),
            profile: team.profile,
            required_approvals: team.required_approvals,
        };
        let data = if change == Change::Created {
            EventData::TeamCreated(changed)
        } else {
            EventData::TeamUpdated(changed)
        };
        let event = NewEvent { artifact: None, actor: None, data };
        Ok(Done::new(change, team.into(), event))
    })
    .await
}

pub async fn get_team(pool: &Db, actor: &Actor, id: &str) -> Result<TeamRow> {
    actor.require(id, Scope::Read)?;
    pool.read(async |conn| teams::find(conn, id).await).await?.ok_or_else(|| team_not_found(id))
}
