//! The writes: each returns the rows it wrote, from which a write builds its reply.

use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

use super::*;
use crate::domain::{
    AssignedBy, AssignmentEnd, ContributorRole, Evidence, Grounds, LockoutEnd, PendingRemedy, Remedy,
    ReviewKind, State, Verdict,
};

pub struct NewArtifact<'a> {
    pub key: &'a str,
    pub title: &'a str,
    pub kind: Option<&'a str>,
    pub paths: &'a [String],
    pub author: &'a str,
}

/// Inserts the artifact in review with version 1 to come; `None` when the key is taken.
pub async fn insert(
    conn: &mut PgConnection,
    team: &str,
    new: &NewArtifact<'_>,
) -> sqlx::Result<Option<ArtifactRow>> {
    sqlx::query_as(concat!(
        "insert into artifacts (team_id, key, title, kind, paths, state, original_author)
         values ($1, $2, $3, $4, $5, 'in_review', $6) on conflict (team_id, key) do nothing returning ",
        artifact_columns!()
    ))
    .bind(team)
    .bind(new.key)
    .bind(new.title)
    .bind(new.kind)
    .bind(new.paths)
    .bind(new.author)
    .fetch_optional(conn)
    .await
}

pub struct NewVersion<'a> {
    pub number: i32,
    pub cycle: i32,
    pub author: &'a str,
    pub contributors: &'a [Contributor],
    pub git_ref: Option<&'a str>,
    pub summary: Option<&'a str>,
}

/// Inserts a version with its contributors. The database refuses a locked-out credit too.
pub async fn insert_version(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    v: &NewVersion<'_>,
) -> sqlx::Result<VersionRow> {
    let row = sqlx::query_as(
        "insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary)
         values ($1, $2, $3, $4, $5, $6, $7) returning number, cycle, author, git_ref, summary, submitted_at",
    )
    .bind(artifact)
    .bind(v.number)
    .bind(team)
    .bind(v.cycle)
    .bind(v.author)
    .bind(v.git_ref)
    .bind(v.summary)
    .fetch_one(&mut *conn)
    .await?;
    if !v.contributors.is_empty() {
        let agents: Vec<&str> = v.contributors.iter().map(|c| c.agent.as_str()).collect();
        let roles: Vec<ContributorRole> = v.contributors.iter().map(|c| c.role).collect();
        sqlx::query(
            "insert into version_contributors (artifact_id, number, team_id, agent_id, role, position)
             select $1, $2, $3, c.agent, c.role, c.position
             from unnest($4::text[], $5::text[]) with ordinality as c(agent, role, position)",
        )
        .bind(artifact)
        .bind(v.number)
        .bind(team)
        .bind(&agents)
        .bind(&roles)
        .execute(conn)
        .await?;
    }
    Ok(row)
}

/// The artifact's new state after a change; `revision` always increases.
pub struct ArtifactUpdate<'a> {
    pub state: State,
    pub cycle: i32,
    pub current_version: i32,
    pub pending_remedy: Option<&'a PendingRemedy>,
}

/// Writes the change and returns the artifact's row as it now is.
pub async fn update(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    u: ArtifactUpdate<'_>,
) -> sqlx::Result<ArtifactRow> {
    sqlx::query_as(concat!(
        "update artifacts set state = $3, cycle = $4, current_version = $5, pending_remedy = $6,
             revision = revision + 1, updated_at = now()
         where team_id = $1 and id = $2 returning ",
        artifact_columns!()
    ))
    .bind(team)
    .bind(artifact)
    .bind(u.state)
    .bind(u.cycle)
    .bind(u.current_version)
    .bind(u.pending_remedy.map(Json))
    .fetch_one(conn)
    .await
}

/// Marks a change that leaves state and remedy as they are (an approval short of the
/// required count, a lifted lockout); returns the artifact's row as it now is.
pub async fn touch(conn: &mut PgConnection, team: &str, artifact: i64) -> sqlx::Result<ArtifactRow> {
    sqlx::query_as(concat!(
        "update artifacts set revision = revision + 1, updated_at = now() where team_id = $1 and id = $2 returning ",
        artifact_columns!()
    ))
    .bind(team)
    .bind(artifact)
    .fetch_one(conn)
    .await
}

pub struct NewReview<'a> {
    pub number: i32,
    pub reviewer: &'a str,
    pub verdict: Verdict,
    pub kind: ReviewKind,
    pub git_ref: Option<&'a str>,
    pub grounds: Option<Grounds>,
    pub reason: Option<&'a str>,
    pub remedy: Option<&'a Remedy>,
    pub evidence: Option<&'a Evidence>,
}

pub async fn insert_review(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    r: NewReview<'_>,
) -> sqlx::Result<ReviewRow> {
    sqlx::query_as(concat!(
        "insert into reviews as r (artifact_id, number, team_id, reviewer, verdict, kind, git_ref, grounds, reason, remedy, evidence)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ",
        review_columns!()
    ))
    .bind(artifact)
    .bind(r.number)
    .bind(team)
    .bind(r.reviewer)
    .bind(r.verdict)
    .bind(r.kind)
    .bind(r.git_ref)
    .bind(r.grounds)
    .bind(r.reason)
    .bind(r.remedy.map(Json))
    .bind(r.evidence.map(Json))
    .fetch_one(conn)
    .await
}

/// R3: locks these agents out for the rest of the cycle, for the rejection `review` of the
/// artifact `key`; returns the new lockouts.
pub async fn insert_lockouts(
    conn: &mut PgConnection,
    team: &str,
    (artifact, key): (i64, &str),
    cycle: i32,
    review: &ReviewRow,
    agents: &[String],
) -> sqlx::Result<Vec<LockoutRow>> {
    sqlx::query_as(
        "insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id)
         select $1, $2, agent, $3, $4, $5 from unnest($6::text[]) as agent
         returning $7::text as artifact, agent_id, number, $8::text as reason, $9::text as reviewer, locked_at",
    )
    .bind(artifact)
    .bind(team)
    .bind(cycle)
    .bind(review.number)
    .bind(review.id)
    .bind(agents)
    .bind(key)
    .bind(&review.reason)
    .bind(&review.reviewer)
    .fetch_all(conn)
    .await
}

/// R8: approval ends the cycle and clears every lockout; the rows stay as history.
pub async fn clear_lockouts(conn: &mut PgConnection, team: &str, artifact: i64) -> sqlx::Result<()> {
    sqlx::query(
        "update lockouts set cleared_at = now(), cleared_by = $3
         where team_id = $1 and artifact_id = $2 and cleared_at is null",
    )
    .bind(team)
    .bind(artifact)
    .bind(LockoutEnd::Approval)
    .execute(conn)
    .await?;
    Ok(())
}

/// R10: the user lifts one agent's lockout.
pub async fn lift_lockout(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    agent: &str,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update lockouts set cleared_at = now(), cleared_by = $5, lift_reason = $4
         where team_id = $1 and artifact_id = $2 and agent_id = $3 and cleared_at is null",
    )
    .bind(team)
    .bind(artifact)
    .bind(agent)
    .bind(reason)
    .bind(LockoutEnd::Lift)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_assignment(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    cycle: i32,
    agent: &str,
    note: Option<&str>,
    assigned_by: AssignedBy,
) -> sqlx::Result<AssignmentRow> {
    sqlx::query_as(
        "insert into assignments (artifact_id, team_id, agent_id, cycle, note, assigned_by)
         values ($1, $2, $3, $4, $5, $6) returning agent_id, note, assigned_by, assigned_at",
    )
    .bind(artifact)
    .bind(team)
    .bind(agent)
    .bind(cycle)
    .bind(note)
    .bind(assigned_by)
    .fetch_one(conn)
    .await
}

/// Ends the active assignment: `version` when the assignee wrote it, or `released`.
pub async fn end_assignment(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    ended_by: AssignmentEnd,
) -> sqlx::Result<()> {
    sqlx::query(
        "update assignments set ended_at = now(), ended_by = $3
         where team_id = $1 and artifact_id = $2 and ended_at is null",
    )
    .bind(team)
    .bind(artifact)
    .bind(ended_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// R9: opens the artifact's escalation with what the user needs to decide.
pub async fn open_escalation(
    conn: &mut PgConnection,
    team: &str,
    (artifact, key): (i64, &str),
    details: Value,
) -> sqlx::Result<EscalationRow> {
    sqlx::query_as(
        "insert into escalations (artifact_id, team_id, details) values ($1, $2, $3)
         returning id, $4::text as artifact, opened_at, details",
    )
    .bind(artifact)
    .bind(team)
    .bind(details)
    .bind(key)
    .fetch_one(conn)
    .await
}

pub async fn resolve_escalation(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    resolution: &Value,
) -> sqlx::Result<()> {
    sqlx::query(
        "update escalations set resolved_at = now(), resolution = $3
         where team_id = $1 and artifact_id = $2 and resolved_at is null",
    )
    .bind(team)
    .bind(artifact)
    .bind(resolution)
    .execute(conn)
    .await?;
    Ok(())
}
