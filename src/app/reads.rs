//! The reads: each body from one snapshot, with the ETag of that snapshot; what every read shares: its body comes from one snapshot, with the ETag of that snapshot,
//! and a client that already holds the current body is answered without it.

use sqlx::PgConnection;

use crate::app::actor::{Actor, team_not_found};
use crate::app::artifact::{artifact_not_found, etag};
use crate::app::index::Index;
use crate::app::views;
use crate::domain::Scope;
use crate::domain::{ArtifactKey, TeamId};
use crate::error::{Error, Result};
use crate::resources::{ArtifactStatus, ArtifactSummary, Escalation, Lockout, Version};
use crate::store::artifacts as store;
use crate::store::{Db, teams};

/// A body with the ETag of the snapshot it was read from.
pub struct Tagged<T> {
    pub etag: String,
    pub body: T,
}

/// A conditional read: the client's copy is current (its ETag), or the body to send.
pub enum Fetched<T> {
    Unchanged(String),
    Full(Tagged<T>),
}

/// The ETag of the team's lists when its last event seq is `seq`: every change of the team
/// appends an event, so a list cannot change without it.
pub fn list_etag(seq: i64) -> String {
    format!("\"e{seq}\"")
}

/// A list of the team's, read by `list` in one snapshot with the team's last event seq, its
/// ETag. When the actor holds a copy (`held` says whether an ETag is the one it holds), the
/// seq alone is read first, and a match answers [`Fetched::Unchanged`] without the list; the
/// lockout `index`, when given and current for the team, knows the seq without a read.
pub async fn team_list<T>(
    pool: &Db,
    index: Option<&Index>,
    actor: &Actor,
    team: &TeamId,
    held: Option<impl FnOnce(&str) -> bool>,
    list: impl AsyncFnOnce(&mut PgConnection) -> Result<T>,
) -> Result<Fetched<T>> {
    actor.require(team, Scope::Read)?;
    let last_seq = async |conn: &mut PgConnection| {
        let seq = teams::last_event_seq(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok::<_, Error>(list_etag(seq))
    };
    if let Some(held) = held {
        let etag = match index.and_then(|i| i.list_seq(team)) {
            Some(seq) => list_etag(seq),
            None => pool.read(last_seq).await?,
        };
        if held(&etag) {
            return Ok(Fetched::Unchanged(etag));
        }
    }
    pool.snapshot(async |conn| {
        let etag = last_seq(conn).await?;
        Ok(Fetched::Full(Tagged { etag, body: list(conn).await? }))
    })
    .await
}

/// The artifact's status from one statement. When the actor holds a copy, `held` says whether
/// an ETag is the one it holds; if so, only the revisions are read, or nothing when the lockout
/// `index` is current for the team and knows them.
pub async fn get(
    pool: &Db,
    index: &Index,
    actor: &Actor,
    team: &TeamId,
    key: &ArtifactKey,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<ArtifactStatus>> {
    actor.require(team, Scope::Read)?;
    // The index knows the ETag: a match is 304 with no read; a mismatch reads the body alone.
    let mut held = held;
    if let Some(Some(etag)) = index.artifact_etag(team, key)
        && let Some(matches) = held.take()
        && matches(&etag)
    {
        return Ok(Fetched::Unchanged(etag));
    }
    pool.read(async |conn| {
        if let Some(held) = held {
            let (revision, team_revision) =
                store::revisions(conn, team, key).await?.ok_or_else(|| team_not_found(team))?;
            let current = etag(revision.ok_or_else(|| artifact_not_found(key))?, team_revision);
            if held(&current) {
                return Ok(Fetched::Unchanged(current));
            }
        }
        let snapshot = store::load(conn, team, key).await?.ok_or_else(|| team_not_found(team))?;
        let loaded = snapshot.artifact.ok_or_else(|| artifact_not_found(key))?;
        let etag = etag(loaded.artifact.revision, snapshot.team_revision);
        Ok(Fetched::Full(Tagged { etag, body: views::status(loaded, snapshot.policy, &snapshot.roster) }))
    })
    .await
}

/// A page of the team's artifacts, with the ETag of the team's lists.
pub async fn list(
    pool: &Db,
    index: &Index,
    actor: &Actor,
    team: &TeamId,
    filter: (Option<&str>, Option<&str>, Option<&str>),
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<ArtifactSummary>>> {
    let (state, agent, cursor) = filter;
    team_list(pool, Some(index), actor, team, held, async |conn| {
        let rows = store::list(conn, team, state, agent, cursor, limit).await?;
        Ok(rows.into_iter().map(views::summary).collect())
    })
    .await
}

/// A page of the artifact's versions with their contributors and reviews, from one statement.
pub async fn versions(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    key: &ArtifactKey,
    after: i32,
    limit: i64,
) -> Result<Vec<Version>> {
    actor.require(team, Scope::Read)?;
    let records = pool.read(async |conn| store::versions(conn, team, key, after, limit).await).await?;
    Ok(records.ok_or_else(|| artifact_not_found(key))?.into_iter().map(views::version_record).collect())
}

pub async fn version(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    key: &ArtifactKey,
    number: i32,
) -> Result<Version> {
    // Saturating: a path may carry any i32, and `i32::MIN - 1` would overflow.
    let after = number.saturating_sub(1);
    versions(pool, actor, team, key, after, 1)
        .await?
        .into_iter()
        .find(|v| v.number == number)
        .ok_or_else(|| Error::NotFound(format!("version {number} of '{key}' does not exist")))
}

/// The team's active lockouts, with the ETag of the team's lists.
pub async fn lockouts(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    agent: Option<&str>,
    artifact: Option<&str>,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Lockout>>> {
    team_list(pool, None, actor, team, held, async |conn| {
        // Filters select: an agent or artifact that does not exist has no lockouts, as an
        // agent that has none, and as the artifacts list answers for its `agent` filter.
        let rows = store::active_lockouts(conn, team, artifact, agent).await?;
        Ok(rows.into_iter().map(views::lockout).collect())
    })
    .await
}

/// A page of the team's open escalations, with the ETag of the team's lists.
pub async fn escalations(
    pool: &Db,
    actor: &Actor,
    team: &TeamId,
    after: i64,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Escalation>>> {
    team_list(pool, None, actor, team, held, async |conn| {
        let rows = store::open_escalations(conn, team, after, limit).await?;
        Ok(rows.into_iter().map(views::escalation).collect())
    })
    .await
}
