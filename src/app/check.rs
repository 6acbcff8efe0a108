//! The question a hook asks before a write: may this agent write this artifact, or these files?

use crate::app::actor::{Actor, team_not_found};
use crate::app::globs::{self, Coverage};
use crate::domain::Scope;
use crate::domain::TeamId;
use crate::domain::{self, Credits, Refusal};
use crate::error::{Error, Result};
use crate::resources::{CheckInput, CheckResult, Denial};
use crate::store::Db;
use crate::store::artifacts::{self as store, LockedPaths, Writer};

/// May the writer write? For an artifact: would a version it authors be accepted now (R5, R6,
/// R11)? For file paths (normalised, R15): does one belong to an artifact it may not write,
/// one it is locked out of (R6) or, for an agent that may not author, any artifact? A writer
/// that names no agent may write nothing an active lockout covers (R16). Answered from one
/// statement; the globs are compiled once per artifact (`coverage`).
pub async fn check(
    pool: &Db,
    coverage: &Coverage,
    actor: &Actor,
    team: &TeamId,
    input: CheckInput,
) -> Result<CheckResult> {
    // An agent's token asks only about itself, and may leave its agent out.
    let writer = match (input.agent.as_deref(), input.alias.as_deref(), actor.scope, actor.agent.as_deref()) {
        (Some(_), Some(_), ..) => return Err(Error::invalid("alias", "give `agent` or `alias`, not both")),
        (Some(id), None, ..) | (None, None, Scope::Agent, Some(id)) => Writer::Id(id),
        (None, Some(name), ..) => Writer::Named(name),
        (None, None, ..) => Writer::Nobody,
    };
    match (actor.scope, writer) {
        (Scope::Agent, Writer::Id(id)) => actor.require_actor(team, id)?,
        _ => actor.require(team, Scope::Read)?,
    }
    if input.artifact.is_none() && input.paths.is_none() {
        return Err(Error::invalid("artifact", "name an artifact, file paths, or both"));
    }
    let paths = globs::files("paths", input.paths.as_deref().unwrap_or_default())?;
    // The team first, whatever is asked: a path check of a team that does not exist is 404,
    // not `allowed` (the admin token reaches every team id).
    let snapshot = pool
        .read(async |conn| store::load_check(conn, team, input.artifact.as_deref(), writer).await)
        .await?
        .ok_or_else(|| team_not_found(team))?;
    if let (Scope::Agent, Some(named)) = (actor.scope, &snapshot.writer) {
        // An agent's token asks only about itself, by whichever name.
        actor.require_actor(team, named)?;
    }
    let candidates: Vec<_> = paths.iter().map(|p| (p, globs::candidate(p))).collect();
    let covered = |locked: &LockedPaths| {
        let set = coverage.set(locked.id, &locked.paths);
        candidates.iter().find(|(_, c)| set.is_match_candidate(c)).map(|(path, _)| path.as_str())
    };
    let denial = |artifact: &str, refusal: Refusal| Denial {
        artifact: Some(artifact.to_owned()),
        code: refusal.code,
        detail: refusal.detail,
    };
    let mut denials = Vec::new();
    let Some(asking) = snapshot.writer.clone() else {
        // R16: nobody the team knows; it may be anyone locked out.
        if let (Some(key), Some(loaded)) = (&input.artifact, &snapshot.artifact) {
            let locked: Vec<String> = loaded.lockouts.iter().map(|l| l.agent_id.clone()).collect();
            if !locked.is_empty() {
                denials.push(denial(key, domain::unnamed_writer(key, None, &locked)));
            }
        }
        for locked in &snapshot.locked_paths {
            if let Some(path) = covered(locked) {
                denials.push(denial(
                    &locked.artifact,
                    domain::unnamed_writer(&locked.artifact, Some(path), &locked.locked),
                ));
            }
        }
        return Ok(CheckResult { allowed: denials.is_empty(), agent: None, denials });
    };
    // An agent that is not an active member of the team is refused whatever it would write.
    let Some(agent) = snapshot.roster.get(&asking).filter(|a| a.active) else {
        let refusal = domain::decide_author(None, &asking).unwrap_err();
        let denial = Denial { artifact: None, code: refusal.code, detail: refusal.detail };
        return Ok(CheckResult { allowed: false, agent: Some(asking), denials: vec![denial] });
    };
    if let Some(key) = &input.artifact {
        let (roster, policy) = (&snapshot.roster, snapshot.policy);
        let refusal = match &snapshot.artifact {
            Some(loaded) => domain::decide_write(&loaded.to_domain(), roster, policy, &asking).err(),
            // Writing a new artifact is writing its first version.
            None => {
                domain::decide_first_version(roster, Credits { author: &asking, contributors: &[] }).err()
            }
        };
        denials.extend(refusal.map(|r| denial(key, r)));
    }
    for locked in &snapshot.locked_paths {
        if let Some(path) = covered(locked) {
            denials.push(denial(&locked.artifact, domain::covered_file(agent, &locked.artifact, path)));
        }
    }
    Ok(CheckResult { allowed: denials.is_empty(), agent: Some(asking), denials })
}
