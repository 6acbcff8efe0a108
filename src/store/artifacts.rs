//! Artifacts with their versions, reviews, lockouts, assignments and escalations.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;

use crate::domain::{self, Contributor, ContributorRole, PendingRemedy, Remedy, RemedyAction, State};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ArtifactRow {
    pub id: i64,
    pub key: String,
    pub title: String,
    pub kind: Option<String>,
    pub paths: Vec<String>,
    pub state: String,
    pub cycle: i32,
    pub revision: i64,
    pub current_version: i32,
    pub original_author: String,
    pub pending_remedy: Option<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

macro_rules! artifact_columns {
    () => {
        "id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct VersionRow {
    pub number: i32,
    pub cycle: i32,
    pub author: String,
    pub git_ref: Option<String>,
    pub summary: Option<String>,
    pub submitted_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContributorRow {
    pub number: i32,
    pub agent_id: String,
    pub role: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReviewRow {
    pub id: i64,
    pub number: i32,
    pub reviewer: String,
    pub verdict: String,
    pub kind: String,
    pub git_ref: Option<String>,
    pub grounds: Option<String>,
    pub reason: Option<String>,
    pub remedy: Option<Value>,
    pub evidence: Option<Value>,
    pub created_at: DateTime<Utc>,
}

macro_rules! review_columns {
    () => {
        "r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LockoutRow {
    pub artifact: String,
    pub agent_id: String,
    pub number: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AssignmentRow {
    pub agent_id: String,
    pub note: Option<String>,
    pub assigned_by: String,
    pub assigned_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EscalationRow {
    pub id: i64,
    pub artifact: String,
    pub opened_at: DateTime<Utc>,
    pub details: Value,
}

/// An artifact with everything the rules and its status need.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub artifact: ArtifactRow,
    pub current: VersionRow,
    pub contributors: Vec<ContributorRow>,
    /// The reviews of every version of the current cycle.
    pub cycle_reviews: Vec<ReviewRow>,
    pub lockouts: Vec<LockoutRow>,
    pub assignment: Option<AssignmentRow>,
}

pub fn parse_role(role: &str) -> ContributorRole {
    match role {
        "pair" => ContributorRole::Pair,
        "advisor" => ContributorRole::Advisor,
        _ => ContributorRole::CoAuthor,
    }
}

/// The stored form of a remedy, as in `pending_remedy` and `reviews.remedy`.
pub fn remedy_from_json(v: &Value) -> Remedy {
    Remedy {
        action: if v["action"] == "escalate" { RemedyAction::Escalate } else { RemedyAction::Reassign },
        agent: v["agent"].as_str().map(str::to_owned),
        expertise: v["expertise"]
            .as_array()
            .map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect())
            .unwrap_or_default(),
    }
}

pub fn pending_to_json(p: &PendingRemedy) -> Value {
    serde_json::json!({
        "action": p.remedy.action.as_str(),
        "agent": p.remedy.agent,
        "expertise": p.remedy.expertise,
        "reviewer": p.reviewer,
        "reason": p.reason,
    })
}

impl Loaded {
    pub fn state(&self) -> State {
        State::parse(&self.artifact.state).unwrap_or(State::InReview)
    }

    pub fn current_reviews(&self) -> impl Iterator<Item = &ReviewRow> {
        self.cycle_reviews.iter().filter(|r| r.number == self.current.number)
    }

    /// The artifact as the rules see it.
    pub fn to_domain(&self) -> domain::Artifact {
        let verdicts = |verdict: &str| {
            self.current_reviews().filter(|r| r.verdict == verdict).map(|r| r.reviewer.clone()).collect()
        };
        domain::Artifact {
            state: self.state(),
            cycle: self.artifact.cycle,
            current: domain::Version {
                number: self.current.number,
                author: self.current.author.clone(),
                contributors: self
                    .contributors
                    .iter()
                    .map(|c| Contributor { agent: c.agent_id.clone(), role: parse_role(&c.role) })
                    .collect(),
                git_ref: self.current.git_ref.clone(),
                approvals: verdicts("approve"),
                rejections: verdicts("reject"),
            },
            lockouts: self.lockouts.iter().map(|l| l.agent_id.clone()).collect(),
            assignee: self.assignment.as_ref().map(|a| a.agent_id.clone()),
            pending_remedy: self.artifact.pending_remedy.as_ref().map(|p| PendingRemedy {
                remedy: remedy_from_json(p),
                reviewer: p["reviewer"].as_str().unwrap_or_default().to_owned(),
                reason: p["reason"].as_str().unwrap_or_default().to_owned(),
            }),
            cycle_rejecters: self
                .cycle_reviews
                .iter()
                .filter(|r| r.verdict == "reject")
                .map(|r| r.reviewer.clone())
                .collect(),
        }
    }
}

/// The artifact's revision: what its ETag says.
pub async fn revision(conn: &mut PgConnection, team: &str, key: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("select revision from artifacts where team_id = $1 and key = $2")
        .bind(team)
        .bind(key)
        .fetch_optional(conn)
        .await
}

/// Loads the artifact, locking its row when `for_update`: every write locks it first, so
/// writes to one artifact run one at a time (R13).
pub async fn load(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
    for_update: bool,
) -> sqlx::Result<Option<Loaded>> {
    let sql = if for_update {
        concat!(
            "select ",
            artifact_columns!(),
            " from artifacts where team_id = $1 and key = $2 for no key update"
        )
    } else {
        concat!("select ", artifact_columns!(), " from artifacts where team_id = $1 and key = $2")
    };
    let Some(artifact): Option<ArtifactRow> =
        sqlx::query_as(sql).bind(team).bind(key).fetch_optional(&mut *conn).await?
    else {
        return Ok(None);
    };
    let current = version(conn, artifact.id, artifact.current_version).await?;
    let contributors = contributors(conn, artifact.id, artifact.current_version).await?;
    let cycle_reviews: Vec<ReviewRow> = sqlx::query_as(concat!(
        "select ",
        review_columns!(),
        " from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number
         where r.artifact_id = $1 and v.cycle = $2 order by r.id"
    ))
    .bind(artifact.id)
    .bind(artifact.cycle)
    .fetch_all(&mut *conn)
    .await?;
    let lockouts = artifact_lockouts(conn, artifact.id).await?;
    let assignment = sqlx::query_as(
        "select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = $1 and ended_at is null",
    )
    .bind(artifact.id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(Some(Loaded { artifact, current, contributors, cycle_reviews, lockouts, assignment }))
}

pub async fn version(conn: &mut PgConnection, artifact: i64, number: i32) -> sqlx::Result<VersionRow> {
    sqlx::query_as(
        "select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = $1 and number = $2",
    )
    .bind(artifact)
    .bind(number)
    .fetch_one(conn)
    .await
}

/// Versions of an artifact in number order, after `after`.
pub async fn versions(
    conn: &mut PgConnection,
    artifact: i64,
    after: i32,
    limit: i64,
) -> sqlx::Result<Vec<VersionRow>> {
    sqlx::query_as(
        "select number, cycle, author, git_ref, summary, submitted_at from versions
         where artifact_id = $1 and number > $2 order by number limit $3",
    )
    .bind(artifact)
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Contributors of one version.
pub async fn contributors(
    conn: &mut PgConnection,
    artifact: i64,
    number: i32,
) -> sqlx::Result<Vec<ContributorRow>> {
    sqlx::query_as(
        "select number, agent_id, role from version_contributors
         where artifact_id = $1 and number = $2 order by position",
    )
    .bind(artifact)
    .bind(number)
    .fetch_all(conn)
    .await
}

/// Contributors of every version.
pub async fn all_contributors(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<Vec<ContributorRow>> {
    sqlx::query_as(
        "select number, agent_id, role from version_contributors where artifact_id = $1 order by number, position",
    )
    .bind(artifact)
    .fetch_all(conn)
    .await
}

/// Reviews of every version.
pub async fn reviews(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<Vec<ReviewRow>> {
    sqlx::query_as(concat!(
        "select ",
        review_columns!(),
        " from reviews r where r.artifact_id = $1 order by r.id"
    ))
    .bind(artifact)
    .fetch_all(conn)
    .await
}

/// Active lockouts of one artifact.
pub async fn artifact_lockouts(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<Vec<LockoutRow>> {
    sqlx::query_as(
        "select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at
         from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id
         where l.artifact_id = $1 and l.cleared_at is null
         order by l.agent_id",
    )
    .bind(artifact)
    .fetch_all(conn)
    .await
}

/// Active lockouts of the team, optionally of one artifact and/or one agent.
pub async fn active_lockouts(
    conn: &mut PgConnection,
    team: &str,
    artifact: Option<i64>,
    agent: Option<&str>,
) -> sqlx::Result<Vec<LockoutRow>> {
    sqlx::query_as(
        "select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at
         from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id
         where l.team_id = $1 and l.cleared_at is null
           and ($2::bigint is null or l.artifact_id = $2) and ($3::text is null or l.agent_id = $3)
         order by a.key, l.agent_id",
    )
    .bind(team)
    .bind(artifact)
    .bind(agent)
    .fetch_all(conn)
    .await
}

pub struct NewArtifact<'a> {
    pub key: &'a str,
    pub title: &'a str,
    pub kind: Option<&'a str>,
    pub paths: &'a [String],
    pub author: &'a str,
}

/// Inserts the artifact in review with version 1 to come; `None` when the key is taken.
pub async fn insert(conn: &mut PgConnection, team: &str, new: &NewArtifact<'_>) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "insert into artifacts (team_id, key, title, kind, paths, state, original_author)
         values ($1, $2, $3, $4, $5, 'in_review', $6) on conflict (team_id, key) do nothing returning id",
    )
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
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(artifact)
    .bind(v.number)
    .bind(team)
    .bind(v.cycle)
    .bind(v.author)
    .bind(v.git_ref)
    .bind(v.summary)
    .execute(&mut *conn)
    .await?;
    if !v.contributors.is_empty() {
        let agents: Vec<&str> = v.contributors.iter().map(|c| c.agent.as_str()).collect();
        let roles: Vec<&str> = v.contributors.iter().map(|c| c.role.as_str()).collect();
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
    Ok(())
}

/// The artifact's new state after a change; `revision` always increases.
pub struct ArtifactUpdate<'a> {
    pub state: State,
    pub cycle: i32,
    pub current_version: i32,
    pub pending_remedy: Option<&'a PendingRemedy>,
}

pub async fn update(conn: &mut PgConnection, artifact: i64, u: ArtifactUpdate<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "update artifacts set state = $2, cycle = $3, current_version = $4, pending_remedy = $5,
             revision = revision + 1, updated_at = now()
         where id = $1",
    )
    .bind(artifact)
    .bind(u.state.as_str())
    .bind(u.cycle)
    .bind(u.current_version)
    .bind(u.pending_remedy.map(pending_to_json))
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks a change that leaves state and remedy as they are (an approval short of the
/// required count, a lifted lockout).
pub async fn touch(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<()> {
    sqlx::query("update artifacts set revision = revision + 1, updated_at = now() where id = $1")
        .bind(artifact)
        .execute(conn)
        .await?;
    Ok(())
}

pub struct NewReview<'a> {
    pub number: i32,
    pub reviewer: &'a str,
    pub verdict: &'a str,
    pub kind: &'a str,
    pub git_ref: Option<&'a str>,
    pub grounds: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub remedy: Option<Value>,
    pub evidence: Option<Value>,
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
    .bind(r.remedy)
    .bind(r.evidence)
    .fetch_one(conn)
    .await
}

/// R3: locks these agents out for the rest of the cycle; returns how many were locked out.
pub async fn insert_lockouts(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    cycle: i32,
    number: i32,
    review: i64,
    agents: &[String],
) -> sqlx::Result<u64> {
    let inserted = sqlx::query(
        "insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id)
         select $1, $2, agent, $3, $4, $5 from unnest($6::text[]) as agent",
    )
    .bind(artifact)
    .bind(team)
    .bind(cycle)
    .bind(number)
    .bind(review)
    .bind(agents)
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected())
}

/// R8: approval ends the cycle and clears every lockout; the rows stay as history.
pub async fn clear_lockouts(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<()> {
    sqlx::query(
        "update lockouts set cleared_at = now(), cleared_by = 'approval' where artifact_id = $1 and cleared_at is null",
    )
    .bind(artifact)
    .execute(conn)
    .await?;
    Ok(())
}

/// R10: the user lifts one agent's lockout.
pub async fn lift_lockout(
    conn: &mut PgConnection,
    artifact: i64,
    agent: &str,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "update lockouts set cleared_at = now(), cleared_by = 'lift', lift_reason = $3
         where artifact_id = $1 and agent_id = $2 and cleared_at is null",
    )
    .bind(artifact)
    .bind(agent)
    .bind(reason)
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
    assigned_by: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "insert into assignments (artifact_id, team_id, agent_id, cycle, note, assigned_by)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(artifact)
    .bind(team)
    .bind(agent)
    .bind(cycle)
    .bind(note)
    .bind(assigned_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends the active assignment: `version` when the assignee wrote it, or `released`.
pub async fn end_assignment(conn: &mut PgConnection, artifact: i64, ended_by: &str) -> sqlx::Result<()> {
    sqlx::query(
        "update assignments set ended_at = now(), ended_by = $2 where artifact_id = $1 and ended_at is null",
    )
    .bind(artifact)
    .bind(ended_by)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn open_escalation(
    conn: &mut PgConnection,
    team: &str,
    artifact: i64,
    details: &Value,
) -> sqlx::Result<()> {
    sqlx::query("insert into escalations (artifact_id, team_id, details) values ($1, $2, $3)")
        .bind(artifact)
        .bind(team)
        .bind(details)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn resolve_escalation(
    conn: &mut PgConnection,
    artifact: i64,
    resolution: &Value,
) -> sqlx::Result<()> {
    sqlx::query("update escalations set resolved_at = now(), resolution = $2 where artifact_id = $1 and resolved_at is null")
        .bind(artifact)
        .bind(resolution)
        .execute(conn)
        .await?;
    Ok(())
}

/// The artifact's open escalation.
pub async fn escalation(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<Option<EscalationRow>> {
    sqlx::query_as(
        "select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id
         where e.artifact_id = $1 and e.resolved_at is null",
    )
    .bind(artifact)
    .fetch_optional(conn)
    .await
}

/// Open escalations of the team, in opening order after `after`.
pub async fn open_escalations(
    conn: &mut PgConnection,
    team: &str,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<EscalationRow>> {
    sqlx::query_as(
        "select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id
         where e.team_id = $1 and e.resolved_at is null and e.id > $2
         order by e.id limit $3",
    )
    .bind(team)
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A page of the team's artifacts in key order, filtered by state and by an agent who
/// authored a version or is locked out.
pub async fn list(
    conn: &mut PgConnection,
    team: &str,
    state: Option<&str>,
    agent: Option<&str>,
    cursor: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<ArtifactRow>> {
    sqlx::query_as(concat!(
        "select ",
        artifact_columns!(),
        " from artifacts a where a.team_id = $1 and ($2::text is null or a.state = $2)
           and ($3::text is null
                or exists (select 1 from versions v where v.artifact_id = a.id and v.author = $3)
                or exists (select 1 from lockouts l where l.artifact_id = a.id and l.agent_id = $3 and l.cleared_at is null))
           and ($4::text is null or a.key > $4)
         order by a.key limit $5"
    ))
    .bind(team)
    .bind(state)
    .bind(agent)
    .bind(cursor)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// An agent's active lockouts with the artifacts' paths (an abandoned artifact takes no more
/// writes to guard): the checks' hot path, which reads only these rows however many artifacts
/// the team has.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LockedPaths {
    pub artifact: String,
    pub paths: Vec<String>,
}

pub async fn locked_paths(
    conn: &mut PgConnection,
    team: &str,
    agent: &str,
) -> sqlx::Result<Vec<LockedPaths>> {
    sqlx::query_as(
        "select a.key as artifact, a.paths from lockouts l join artifacts a on a.id = l.artifact_id
         where l.team_id = $1 and l.agent_id = $2 and l.cleared_at is null and a.state <> 'abandoned'
         order by a.key",
    )
    .bind(team)
    .bind(agent)
    .fetch_all(conn)
    .await
}
