//! Artifacts with their versions, reviews, lockouts, assignments and escalations.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;

use serde::Deserialize;
use sqlx::types::Json;

use crate::domain::{
    self, Contributor, ContributorRole, Evidence, Grounds, PendingRemedy, Policy, Profile, Remedy,
    ReviewKind, Roster, State, Verdict,
};
use crate::store::teams;

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct ArtifactRow {
    pub id: i64,
    pub key: String,
    pub title: String,
    pub kind: Option<String>,
    pub paths: Vec<String>,
    pub state: State,
    pub cycle: i32,
    pub revision: i64,
    pub current_version: i32,
    pub original_author: String,
    #[sqlx(json(nullable))]
    pub pending_remedy: Option<PendingRemedy>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

macro_rules! artifact_columns {
    () => {
        "id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct VersionRow {
    pub number: i32,
    pub cycle: i32,
    pub author: String,
    pub git_ref: Option<String>,
    pub summary: Option<String>,
    pub submitted_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ContributorRow {
    pub agent_id: String,
    pub role: ContributorRole,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct ReviewRow {
    pub id: i64,
    pub number: i32,
    pub reviewer: String,
    pub verdict: Verdict,
    pub kind: ReviewKind,
    pub git_ref: Option<String>,
    pub grounds: Option<Grounds>,
    pub reason: Option<String>,
    #[sqlx(json(nullable))]
    pub remedy: Option<Remedy>,
    #[sqlx(json(nullable))]
    pub evidence: Option<Evidence>,
    pub created_at: DateTime<Utc>,
}

macro_rules! review_columns {
    () => {
        "r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct LockoutRow {
    pub artifact: String,
    pub agent_id: String,
    pub number: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct AssignmentRow {
    pub agent_id: String,
    pub note: Option<String>,
    pub assigned_by: String,
    pub assigned_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow, Deserialize)]
pub struct EscalationRow {
    pub id: i64,
    pub artifact: String,
    pub opened_at: DateTime<Utc>,
    pub details: Value,
}

/// An artifact with everything the rules and its status need.
#[derive(Debug, Clone, Deserialize)]
pub struct Loaded {
    pub artifact: ArtifactRow,
    pub current: VersionRow,
    /// The contributors of the current version, in the order they were credited.
    pub contributors: Vec<ContributorRow>,
    /// The reviews of every version of the current cycle.
    pub cycle_reviews: Vec<ReviewRow>,
    pub lockouts: Vec<LockoutRow>,
    pub assignment: Option<AssignmentRow>,
    /// The open escalation (R9).
    pub escalation: Option<EscalationRow>,
}

/// A team as one statement saw it: what the rules need of it, one artifact, and one agent's
/// locked paths, all from the same snapshot.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub policy: Policy,
    /// Increases with every change of the policy or the roster.
    pub team_revision: i64,
    pub roster: Roster,
    /// The artifact asked for, if it exists.
    pub artifact: Option<Loaded>,
    /// The active lockouts of the agent asked for, with their artifacts' paths.
    pub locked_paths: Vec<LockedPaths>,
}

impl Loaded {
    pub fn current_reviews(&self) -> impl Iterator<Item = &ReviewRow> {
        self.cycle_reviews.iter().filter(|r| r.number == self.current.number)
    }

    /// The artifact as the rules see it.
    pub fn to_domain(&self) -> domain::Artifact {
        let verdicts = |verdict: Verdict| {
            self.current_reviews().filter(|r| r.verdict == verdict).map(|r| r.reviewer.clone()).collect()
        };
        domain::Artifact {
            state: self.artifact.state,
            cycle: self.artifact.cycle,
            current: domain::Version {
                number: self.current.number,
                author: self.current.author.clone(),
                contributors: self
                    .contributors
                    .iter()
                    .map(|c| Contributor { agent: c.agent_id.clone(), role: c.role })
                    .collect(),
                git_ref: self.current.git_ref.clone(),
                approvals: verdicts(Verdict::Approve),
                rejections: verdicts(Verdict::Reject),
            },
            lockouts: self.lockouts.iter().map(|l| l.agent_id.clone()).collect(),
            assignee: self.assignment.as_ref().map(|a| a.agent_id.clone()),
            pending_remedy: self.artifact.pending_remedy.clone(),
            cycle_rejecters: self
                .cycle_reviews
                .iter()
                .filter(|r| r.verdict == Verdict::Reject)
                .map(|r| r.reviewer.clone())
                .collect(),
        }
    }
}

/// What an artifact's ETag is made of, read alone: the artifact's revision and its team's.
/// `None` when the team does not exist; an artifact revision of `None` when the artifact does not.
pub async fn revisions(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
) -> sqlx::Result<Option<(Option<i64>, i64)>> {
    sqlx::query_as(
        "select a.revision, t.revision from teams t left join artifacts a on a.team_id = t.id and a.key = $2
         where t.id = $1",
    )
    .bind(team)
    .bind(key)
    .fetch_optional(conn)
    .await
}

/// Locks the artifact's row for a write, so writes to one artifact run one at a time (R13), and
/// its team's row `for share`, so the roster and the policy the write decides on stay as they
/// are until it commits (a roster or policy change locks that row `for no key update`). `false`
/// when the artifact (or its team) does not exist. Load the artifact after this, in a statement
/// of its own: one that waited for a lock still sees what it saw before it waited.
pub async fn lock(conn: &mut PgConnection, team: &str, key: &str) -> sqlx::Result<bool> {
    let locked: Option<i32> = sqlx::query_scalar(
        "select 1 from artifacts a join teams t on t.id = a.team_id where a.team_id = $1 and a.key = $2
         for no key update of a for share of t",
    )
    .bind(team)
    .bind(key)
    .fetch_optional(conn)
    .await?;
    Ok(locked.is_some())
}

/// An agent of the roster as the statements of this file return it.
#[derive(Deserialize)]
struct RosterRow {
    id: String,
    active: bool,
    can_review: bool,
    can_author: bool,
    expertise: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct SnapshotRow {
    profile: Profile,
    required_approvals: i32,
    revision: i64,
    roster: Json<Vec<RosterRow>>,
    artifact: Option<Json<Loaded>>,
    locked_paths: Json<Vec<LockedPaths>>,
}

/// A statement reading a [`Snapshot`]: the team `$1`'s policy, revision and roster (its agents
/// where `roster` holds), the `artifact` and the `locked_paths`, as JSON. Each kind of load has
/// a statement of its own rather than one whose parts are switched off by NULL parameters: on
/// such a statement Postgres plans again at every execution.
macro_rules! snapshot_sql {
    (roster: $roster:literal, artifact: $artifact:expr, locked_paths: $locked:expr) => {
        concat!(
            "select t.profile, t.required_approvals, t.revision,
                 coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review,
                                                             'can_author', g.can_author, 'expertise', g.expertise))
                           from agents g where g.team_id = t.id",
            $roster,
            "), '[]') as roster, ",
            $artifact,
            " as artifact, ",
            $locked,
            " as locked_paths from teams t where t.id = $1"
        )
    };
}

/// The artifact `$key` of the team `t` with everything the rules and its status need, as JSON.
macro_rules! artifact_json {
    ($key:literal) => {
        concat!(
            "(select json_build_object(
                 'artifact', to_json(a),
                 'current', (select to_json(v) from versions v where v.artifact_id = a.id and v.number = a.current_version),
                 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c
                                           where c.artifact_id = a.id and c.number = a.current_version), '[]'),
                 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r
                                            join versions v on v.artifact_id = r.artifact_id and v.number = r.number
                                            where r.artifact_id = a.id and v.cycle = a.cycle), '[]'),
                 'lockouts', coalesce((select json_agg(x order by x.agent_id) from
                                           (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at
                                            from lockouts l join reviews r on r.id = l.review_id
                                            where l.artifact_id = a.id and l.cleared_at is null) x), '[]'),
                 'assignment', (select to_json(s) from assignments s where s.artifact_id = a.id and s.ended_at is null),
                 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details)
                                from escalations e where e.artifact_id = a.id and e.resolved_at is null))
             from artifacts a where a.team_id = t.id and a.key = ",
            $key,
            ")"
        )
    };
}

/// The active lockouts of the agent `$agent` of the team `t`, with their artifacts' paths, as JSON.
macro_rules! locked_paths_json {
    ($agent:literal) => {
        concat!(
            "coalesce((select json_agg(json_build_object('artifact', p.key, 'paths', p.paths) order by p.key)
                       from lockouts l join artifacts p on p.id = l.artifact_id
                       where l.team_id = t.id and l.agent_id = ",
            $agent,
            " and l.cleared_at is null and p.state <> 'abandoned'), '[]')"
        )
    };
}

/// The team's policy and roster with the artifact `key`, from one statement; `None` when the
/// team does not exist. What a status read and a write to the artifact decide on.
pub async fn load(conn: &mut PgConnection, team: &str, key: &str) -> sqlx::Result<Option<Snapshot>> {
    let sql = snapshot_sql!(roster: "", artifact: artifact_json!("$2"), locked_paths: "'[]'::json");
    let row = sqlx::query_as(sql).bind(team).bind(key).fetch_optional(conn).await?;
    Ok(row.map(SnapshotRow::into_snapshot))
}

/// The team's policy and roster alone: what creating an artifact decides on.
pub async fn load_team(conn: &mut PgConnection, team: &str) -> sqlx::Result<Option<Snapshot>> {
    let sql = snapshot_sql!(roster: "", artifact: "null::json", locked_paths: "'[]'::json");
    let row = sqlx::query_as(sql).bind(team).fetch_optional(conn).await?;
    Ok(row.map(SnapshotRow::into_snapshot))
}

/// What a check of `agent` decides on, from one statement: its locked paths and, when it asks
/// about the artifact `key`, that artifact and the whole roster; else the roster holds only the
/// agent. `None` when the team does not exist.
pub async fn load_check(
    conn: &mut PgConnection,
    team: &str,
    key: Option<&str>,
    agent: &str,
) -> sqlx::Result<Option<Snapshot>> {
    let row = match key {
        Some(key) => {
            let sql = snapshot_sql!(roster: "", artifact: artifact_json!("$2"), locked_paths: locked_paths_json!("$3"));
            sqlx::query_as(sql).bind(team).bind(key).bind(agent).fetch_optional(conn).await?
        }
        None => {
            let sql = snapshot_sql!(roster: " and g.id = $2", artifact: "null::json", locked_paths: locked_paths_json!("$2"));
            sqlx::query_as(sql).bind(team).bind(agent).fetch_optional(conn).await?
        }
    };
    Ok(row.map(SnapshotRow::into_snapshot))
}

impl SnapshotRow {
    fn into_snapshot(self) -> Snapshot {
        let roster = self.roster.0.into_iter().map(|a| {
            let agent = domain::Agent {
                id: a.id.clone(),
                active: a.active,
                can_review: a.can_review,
                can_author: a.can_author,
                expertise: a.expertise.into_iter().collect(),
            };
            (a.id, agent)
        });
        Snapshot {
            policy: teams::policy(self.profile, self.required_approvals),
            team_revision: self.revision,
            roster: Roster(roster.collect()),
            artifact: self.artifact.map(|a| a.0),
            locked_paths: self.locked_paths.0,
        }
    }
}

/// A version with its contributors and reviews.
#[derive(Debug, Clone, Deserialize)]
pub struct VersionRecord {
    #[serde(flatten)]
    pub version: VersionRow,
    pub contributors: Vec<ContributorRow>,
    pub reviews: Vec<ReviewRow>,
}

/// The artifact's versions after `after` in number order, each with its contributors and
/// reviews, in one statement; `None` when the artifact does not exist.
pub async fn versions(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
    after: i32,
    limit: i64,
) -> sqlx::Result<Option<Vec<VersionRecord>>> {
    let page: Option<Json<Vec<VersionRecord>>> = sqlx::query_scalar(
        "select coalesce((select json_agg(x order by x.number) from
                    (select v.number, v.cycle, v.author, v.git_ref, v.summary, v.submitted_at,
                         coalesce((select json_agg(c order by c.position) from version_contributors c
                                   where c.artifact_id = v.artifact_id and c.number = v.number), '[]') as contributors,
                         coalesce((select json_agg(r order by r.id) from reviews r
                                   where r.artifact_id = v.artifact_id and r.number = v.number), '[]') as reviews
                     from versions v where v.artifact_id = a.id and v.number > $3 order by v.number limit $4) x), '[]')
         from artifacts a where a.team_id = $1 and a.key = $2",
    )
    .bind(team)
    .bind(key)
    .bind(after)
    .bind(limit)
    .fetch_optional(conn)
    .await?;
    Ok(page.map(|p| p.0))
}

/// Active lockouts of the team, optionally of one artifact and/or one agent.
pub async fn active_lockouts(
    conn: &mut PgConnection,
    team: &str,
    artifact: Option<&str>,
    agent: Option<&str>,
) -> sqlx::Result<Vec<LockoutRow>> {
    sqlx::query_as(
        "select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at
         from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id
         where l.team_id = $1 and l.cleared_at is null
           and ($2::text is null or a.key = $2) and ($3::text is null or l.agent_id = $3)
         order by a.key, l.agent_id",
    )
    .bind(team)
    .bind(artifact)
    .bind(agent)
    .fetch_all(conn)
    .await
}

/// Whether the team has an artifact with this key.
pub async fn exists(conn: &mut PgConnection, team: &str, key: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from artifacts where team_id = $1 and key = $2)")
        .bind(team)
        .bind(key)
        .fetch_one(conn)
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
    artifact: i64,
    u: ArtifactUpdate<'_>,
) -> sqlx::Result<ArtifactRow> {
    sqlx::query_as(concat!(
        "update artifacts set state = $2, cycle = $3, current_version = $4, pending_remedy = $5,
             revision = revision + 1, updated_at = now()
         where id = $1 returning ",
        artifact_columns!()
    ))
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
pub async fn touch(conn: &mut PgConnection, artifact: i64) -> sqlx::Result<ArtifactRow> {
    sqlx::query_as(concat!(
        "update artifacts set revision = revision + 1, updated_at = now() where id = $1 returning ",
        artifact_columns!()
    ))
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

/// An artifact an agent is locked out of, with its paths: what a path check reads. An
/// abandoned artifact takes no more writes to guard and is left out.
#[derive(Debug, Clone, Deserialize)]
pub struct LockedPaths {
    pub artifact: String,
    pub paths: Vec<String>,
}
