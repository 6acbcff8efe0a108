//! The question a hook asks before a write: may this agent write this artifact, or these files?
//! Answered by the replica's lockout index (`app::index`) while it is current, else by the
//! database; both feed the same [`decide`].

pub mod decide;

pub use self::decide::{Facts, Locked, Question, decide};
use crate::app::actor::{Actor, team_not_found};
use crate::app::globs::{self, Coverage};
use crate::app::index::Index;
use crate::domain::{Scope, TeamId};
use crate::error::{Error, Result};
use crate::resources::{CheckInput, CheckResult};
use crate::store::Db;
use crate::store::artifacts::{self as store, Writer};

/// May the writer write? For an artifact: would a version it authors be accepted now (R5, R6,
/// R11)? For file paths (normalised, R15): does one belong to an artifact it may not write,
/// one it is locked out of (R6) or, for an agent that may not author, any artifact? A writer
/// that names no agent may write nothing an active lockout covers (R16). Answered by the index
/// when it is current (and at or past `min_seq`, after a wait of at most `wait`), else from
/// one statement; the globs are compiled once per artifact (`coverage`).
pub async fn check(
    pool: &Db,
    index: &Index,
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
    if input.min_seq.is_some_and(|s| s < 0) {
        return Err(Error::invalid("min_seq", "must be at least 0"));
    }
    let paths = globs::files("paths", input.paths.as_deref().unwrap_or_default())?;
    let question = Question { writer, artifact: input.artifact.as_deref(), paths, min_seq: input.min_seq };
    let result = match index.check(team, &question, coverage).await {
        Some(result) => result,
        None => from_database(pool, index, coverage, team, &question).await?,
    };
    if let (Scope::Agent, Some(named)) = (actor.scope, &result.agent) {
        // An agent's token asks only about itself, by whichever name.
        actor.require_actor(team, named)?;
    }
    Ok(result)
}

/// The answer from one statement of the database.
async fn from_database(
    pool: &Db,
    index: &Index,
    coverage: &Coverage,
    team: &TeamId,
    question: &Question<'_>,
) -> Result<CheckResult> {
    let started = std::time::Instant::now();
    // The team first, whatever is asked: a path check of a team that does not exist is 404,
    // not `allowed` (the admin token reaches every team id).
    let snapshot = pool
        .read(async |conn| store::load_check(conn, team, question.artifact, question.writer).await)
        .await?
        .ok_or_else(|| team_not_found(team))?;
    index.answered_by_database(started.elapsed());
    let artifact = snapshot.artifact.as_ref().map(store::Loaded::to_domain);
    let facts = Facts {
        policy: snapshot.policy,
        roster: &snapshot.roster,
        writer: snapshot.writer.clone(),
        artifact: artifact.as_ref(),
        locked_paths: snapshot.locked_paths.iter().map(|l| Locked {
            id: l.id,
            artifact: &l.artifact,
            paths: &l.paths,
            locked: &l.locked,
        }),
        seq: snapshot.seq.unwrap_or_default(),
    };
    Ok(decide(facts, question, coverage))
}
