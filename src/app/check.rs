//! The question a hook asks before a write: may this agent write this artifact, or these files?

use crate::app::actor::{Actor, Scope, team_not_found};
use crate::app::globs;
use crate::domain::TeamId;
use crate::domain::{self, Code, Credits};
use crate::error::{Error, Result};
use crate::resources::{CheckInput, CheckResult, Denial};
use crate::store::Db;
use crate::store::artifacts as store;

/// May the agent write? For an artifact: would a version it authors be accepted now (R5, R6,
/// R11)? For file paths: is it locked out of an artifact whose globs match one (R6)? Answered
/// from one statement.
pub async fn check(pool: &Db, actor: &Actor, team: &TeamId, input: CheckInput) -> Result<CheckResult> {
    match actor.scope {
        // An agent's token asks only about itself.
        Scope::Agent => actor.require_actor(team, &input.agent)?,
        _ => actor.require(team, Scope::Read)?,
    }
    if input.artifact.is_none() && input.paths.is_none() {
        return Err(Error::invalid("artifact", "name an artifact, file paths, or both"));
    }
    let paths = input.paths.as_deref().unwrap_or_default();
    // The team first, whatever is asked: a path check of a team that does not exist is 404,
    // not `allowed` (the admin token reaches every team id).
    let snapshot = pool
        .read(async |conn| store::load_check(conn, team, input.artifact.as_deref(), &input.agent).await)
        .await?
        .ok_or_else(|| team_not_found(team))?;
    // An agent that may not author at all is refused whatever it would write.
    if let Err(refusal) = domain::decide_author(snapshot.roster.get(&input.agent), &input.agent) {
        let denial = Denial { artifact: None, code: refusal.code.as_str().into(), detail: refusal.detail };
        return Ok(CheckResult { allowed: false, denials: vec![denial] });
    }
    let mut denials = Vec::new();
    if let Some(key) = &input.artifact {
        let (roster, policy) = (&snapshot.roster, snapshot.policy);
        let refusal = match &snapshot.artifact {
            Some(loaded) => domain::decide_write(&loaded.to_domain(), roster, policy, &input.agent).err(),
            // Writing a new artifact is writing its first version.
            None => domain::decide_first_version(roster, Credits { author: &input.agent, contributors: &[] })
                .err(),
        };
        denials.extend(refusal.map(|r| Denial {
            artifact: Some(key.clone()),
            code: r.code.as_str().into(),
            detail: r.detail,
        }));
    }
    for locked in &snapshot.locked_paths {
        let matched = locked
            .paths
            .iter()
            .filter_map(|g| globs::matcher(g))
            .find_map(|g| paths.iter().find(|p| g.is_match(p)));
        if let Some(path) = matched {
            denials.push(Denial {
                artifact: Some(locked.artifact.clone()),
                code: Code::AgentLockedOut.as_str().into(),
                detail: format!(
                    "'{path}' belongs to artifact '{}', which agent '{}' is locked out of until a revision is approved",
                    locked.artifact, input.agent
                ),
            });
        }
    }
    Ok(CheckResult { allowed: denials.is_empty(), denials })
}
