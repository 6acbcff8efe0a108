//! The reads: each one statement, and so one snapshot.

use serde::Deserialize;
use sqlx::PgConnection;
use sqlx::types::Json;

use super::*;
use crate::domain::{self, Profile, Roster};
use crate::store::teams;

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
/// its team's row `for share` through the team's gate (`teams::gate!`), so the roster and the
/// policy the write decides on stay as they are until it commits (a roster or policy change takes
/// the gate exclusively and locks that row `for no key update`). `false` when the artifact (or
/// its team) does not exist. Load the artifact after this, in a statement of its own: one that
/// waited for a lock still sees what it saw before it waited.
pub async fn lock(conn: &mut PgConnection, team: &str, key: &str) -> sqlx::Result<bool> {
    let locked: Option<i32> = sqlx::query_scalar(concat!(
        teams::gate!(shared),
        "select 1 from artifacts a join teams t on t.id = a.team_id
         where a.team_id = $1 and a.key = $2 and exists (select from gate)
         for no key update of a for share of t",
    ))
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
    /// Read by a check alone.
    #[sqlx(default)]
    writer: Option<String>,
    /// Read by a check alone.
    #[sqlx(default)]
    seq: Option<i64>,
}

/// A statement reading a [`Snapshot`]: the team `$1`'s policy, revision and roster (its agents
/// where `roster` holds), the `artifact` and the `locked_paths`, as JSON. Each kind of load has
/// a statement of its own rather than one whose parts are switched off by NULL parameters: on
/// such a statement Postgres plans again at every execution.
macro_rules! snapshot_sql {
    (roster: $roster:literal, artifact: $artifact:expr, locked_paths: $locked:expr) => {
        snapshot_sql!(roster: $roster, artifact: $artifact, locked_paths: $locked, "")
    };
    (roster: $roster:expr, artifact: $artifact:expr, locked_paths: $locked:expr, writer: $writer:expr) => {
        snapshot_sql!(roster: $roster, artifact: $artifact, locked_paths: $locked,
                      concat!(", ", $writer, " as writer", team_seq!()))
    };
    (roster: $roster:expr, artifact: $artifact:expr, locked_paths: $locked:expr, $writer:expr) => {
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
            " as locked_paths",
            $writer,
            " from teams t where t.id = $1"
        )
    };
}

/// The team `t`'s last event seq, as the column `seq`: what a check's answer reflects.
macro_rules! team_seq {
    () => {
        ", (select s.last_event_seq from team_seqs s where s.team_id = t.id) as seq"
    };
}

/// The artifact `$key` of the team `t` with everything the rules and its status need, as JSON.
macro_rules! artifact_json {
    ($key:literal) => {
        concat!(
            "(select json_build_object(
                 'artifact', to_json(a),
                 'current', (select to_json(v) from versions v where v.team_id = a.team_id and v.artifact_id = a.id and v.number = a.current_version),
                 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c
                                           where c.team_id = a.team_id and c.artifact_id = a.id and c.number = a.current_version), '[]'),
                 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r
                                            join versions v on v.team_id = r.team_id and v.artifact_id = r.artifact_id and v.number = r.number
                                            where r.team_id = a.team_id and r.artifact_id = a.id and v.cycle = a.cycle), '[]'),
                 'lockouts', coalesce((select json_agg(x order by x.agent_id) from
                                           (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at
                                            from lockouts l join reviews r on r.team_id = l.team_id and r.id = l.review_id
                                            where l.team_id = a.team_id and l.artifact_id = a.id and l.cleared_at is null) x), '[]'),
                 'assignment', (select to_json(s) from assignments s where s.team_id = a.team_id and s.artifact_id = a.id and s.ended_at is null),
                 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details)
                                from escalations e where e.team_id = a.team_id and e.artifact_id = a.id and e.resolved_at is null))
             from artifacts a where a.team_id = t.id and a.key = ",
            $key,
            ")"
        )
    };
}

/// The agent of the team `t` that `$name` names, by its id or one of its aliases (R16); null
/// when it names none.
macro_rules! named {
    ($name:literal) => {
        concat!(
            "(select coalesce((select g.id from agents g where g.team_id = t.id and g.id = ",
            $name,
            "), (select s.agent_id from agent_aliases s where s.team_id = t.id and s.alias = ",
            $name,
            ")))"
        )
    };
}

/// The artifacts whose files a writer of the team `t` may not write, with their paths, as JSON.
/// Abandoned artifacts take no more writes and are left out. `agent: $id`: those the agent is
/// locked out of (R6) or, when it is an active agent that may not author, every artifact with
/// paths; each branch runs only when chosen, so the usual check reads the agent's lockouts alone.
/// `nobody`: every artifact someone is locked out of, with who (R16). `named: $id`: either, as
/// `$id` (an agent id or null) says.
macro_rules! locked_paths_json {
    (nobody) => {
        "coalesce((select json_agg(json_build_object('id', p.id, 'artifact', p.key, 'paths', p.paths,
                                                     'locked', (select array_agg(l.agent_id order by l.agent_id)
                                                                from lockouts l where l.team_id = p.team_id
                                                                and l.artifact_id = p.id and l.cleared_at is null))
                             order by p.key)
                   from artifacts p where p.team_id = t.id and p.paths <> '{}' and p.state <> 'abandoned'
                   and exists (select from lockouts l where l.team_id = p.team_id and l.artifact_id = p.id
                               and l.cleared_at is null)), '[]')"
    };
    (named: $agent:expr) => {
        concat!("case when ", $agent, " is null then ", locked_paths_json!(nobody), " else ",
                locked_paths_json!(agent: $agent), " end")
    };
    (agent: $agent:expr) => {
        concat!(
            "case when exists (select from agents g where g.team_id = t.id and g.id = ",
            $agent,
            " and g.active and not g.can_author)
             then coalesce((select json_agg(json_build_object('id', p.id, 'artifact', p.key, 'paths', p.paths) order by p.key)
                            from artifacts p where p.team_id = t.id and p.paths <> '{}' and p.state <> 'abandoned'), '[]')
             else coalesce((select json_agg(json_build_object('id', p.id, 'artifact', p.key, 'paths', p.paths) order by p.key)
                            from lockouts l join artifacts p on p.team_id = l.team_id and p.id = l.artifact_id
                            where l.team_id = t.id and l.agent_id = ",
            $agent,
            " and l.cleared_at is null and p.state <> 'abandoned'), '[]') end"
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

/// Who a check is about (R16).
#[derive(Debug, Clone, Copy)]
pub enum Writer<'a> {
    /// An agent, by its id.
    Id(&'a str),
    /// Whichever agent this id or alias names; nobody if none.
    Named(&'a str),
    /// A writer reviewlock cannot name.
    Nobody,
}

/// What a check of `writer` decides on, from one statement: the agent it is (`Snapshot::writer`),
/// its locked paths and, when it asks about the artifact `key`, that artifact and the whole
/// roster; else the roster holds only the agent. `None` when the team does not exist.
pub async fn load_check(
    conn: &mut PgConnection,
    team: &str,
    key: Option<&str>,
    writer: Writer<'_>,
) -> sqlx::Result<Option<Snapshot>> {
    macro_rules! nobody {
        ($artifact:expr) => {
            snapshot_sql!(roster: " and false", artifact: $artifact, locked_paths: locked_paths_json!(nobody), team_seq!())
        };
    }
    macro_rules! statement {
        (artifact: $key:literal, $how:ident: $writer:expr) => {
            snapshot_sql!(roster: "", artifact: artifact_json!($key), locked_paths: locked_paths_json!($how: $writer),
                          writer: $writer)
        };
        ($how:ident: $writer:expr) => {
            snapshot_sql!(roster: concat!(" and g.id = ", $writer), artifact: "null::json",
                          locked_paths: locked_paths_json!($how: $writer), writer: $writer)
        };
    }
    let (sql, name) = match (key, writer) {
        (Some(_), Writer::Id(id)) => (statement!(artifact: "$2", agent: "$3"), Some(id)),
        (Some(_), Writer::Named(name)) => (statement!(artifact: "$2", named: named!("$3")), Some(name)),
        (Some(_), Writer::Nobody) => (nobody!(artifact_json!("$2")), None),
        (None, Writer::Id(id)) => (statement!(agent: "$2"), Some(id)),
        (None, Writer::Named(name)) => (statement!(named: named!("$2")), Some(name)),
        (None, Writer::Nobody) => (nobody!("null::json"), None),
    };
    let mut query = sqlx::query_as(sql).bind(team);
    if let Some(key) = key {
        query = query.bind(key);
    }
    if let Some(name) = name {
        query = query.bind(name);
    }
    let row: Option<SnapshotRow> = query.fetch_optional(conn).await?;
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
            writer: self.writer,
            seq: self.seq,
        }
    }
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
                                   where c.team_id = v.team_id and c.artifact_id = v.artifact_id and c.number = v.number), '[]') as contributors,
                         coalesce((select json_agg(r order by r.id) from reviews r
                                   where r.team_id = v.team_id and r.artifact_id = v.artifact_id and r.number = v.number), '[]') as reviews
                     from versions v where v.team_id = a.team_id and v.artifact_id = a.id and v.number > $3 order by v.number limit $4) x), '[]')
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

/// The `ref` of each of an artifact's versions among `numbers` that has one.
pub async fn version_refs(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
    numbers: &[i32],
) -> sqlx::Result<Vec<(i32, String)>> {
    sqlx::query_as(
        "select v.number, v.git_ref from artifacts a join versions v on v.team_id = a.team_id and v.artifact_id = a.id
         where a.team_id = $1 and a.key = $2 and v.number = any($3) and v.git_ref is not null",
    )
    .bind(team)
    .bind(key)
    .bind(numbers)
    .fetch_all(conn)
    .await
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
         from lockouts l join artifacts a on a.team_id = l.team_id and a.id = l.artifact_id
         join reviews r on r.team_id = l.team_id and r.id = l.review_id
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

/// Open escalations of the team, in opening order after `after`.
pub async fn open_escalations(
    conn: &mut PgConnection,
    team: &str,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<EscalationRow>> {
    sqlx::query_as(
        "select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.team_id = e.team_id and a.id = e.artifact_id
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
                or exists (select 1 from versions v where v.team_id = a.team_id and v.artifact_id = a.id and v.author = $3)
                or exists (select 1 from lockouts l where l.team_id = a.team_id and l.artifact_id = a.id and l.agent_id = $3 and l.cleared_at is null))
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

/// A team whole, for the lockout index (`app::index`): its policy, revision and last event seq,
/// every agent, and every alias with the agent it names.
pub struct TeamRecord {
    pub seq: i64,
    pub policy: Policy,
    pub revision: i64,
    pub roster: Roster,
    pub aliases: Vec<(String, String)>,
}

#[derive(sqlx::FromRow)]
struct TeamRecordRow {
    seq: i64,
    profile: Profile,
    required_approvals: i32,
    revision: i64,
    roster: Json<Vec<RosterRow>>,
    aliases: Json<Vec<(String, String)>>,
}

/// The team whole but its artifacts ([`TeamRecord`]), from one statement; `None` when the team
/// does not exist. Run it with [`index_artifacts`] and [`index_changes`] in one snapshot.
pub async fn index_team(conn: &mut PgConnection, team: &str) -> sqlx::Result<Option<TeamRecord>> {
    let row: Option<TeamRecordRow> = sqlx::query_as(
        "select s.last_event_seq as seq, t.profile, t.required_approvals, t.revision,
             coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review,
                                                         'can_author', g.can_author, 'expertise', g.expertise))
                       from agents g where g.team_id = t.id), '[]') as roster,
             coalesce((select json_agg(json_build_array(x.alias, x.agent_id)) from agent_aliases x
                       where x.team_id = t.id), '[]') as aliases
         from teams t join team_seqs s on s.team_id = t.id where t.id = $1",
    )
    .bind(team)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| {
        let snapshot = SnapshotRow {
            profile: r.profile,
            required_approvals: r.required_approvals,
            revision: r.revision,
            roster: r.roster,
            artifact: None,
            locked_paths: Json(Vec::new()),
            writer: None,
            seq: None,
        }
        .into_snapshot();
        TeamRecord {
            seq: r.seq,
            policy: snapshot.policy,
            revision: r.revision,
            roster: snapshot.roster,
            aliases: r.aliases.0,
        }
    }))
}

/// The team's artifacts, each as a status read loads it, handed to `each` one at a time as
/// they arrive (a team may have a million): every one, or those of `keys` (an artifact no longer
/// there is left out).
pub async fn index_artifacts(
    conn: &mut PgConnection,
    team: &str,
    keys: Option<&[String]>,
    mut each: impl FnMut(Loaded),
) -> sqlx::Result<()> {
    use futures_util::TryStreamExt;
    let mut rows = match keys {
        None => sqlx::query_scalar::<_, Json<Loaded>>(concat!(
            "select ",
            artifact_json!("k.key"),
            " from teams t join artifacts k on k.team_id = t.id where t.id = $1"
        ))
        .bind(team)
        .fetch(conn),
        Some(keys) => sqlx::query_scalar::<_, Json<Loaded>>(concat!(
            "select ",
            artifact_json!("k.key"),
            " from teams t join artifacts k on k.team_id = t.id where t.id = $1 and k.key = any($2)"
        ))
        .bind(team)
        .bind(keys)
        .fetch(conn),
    };
    while let Some(row) = rows.try_next().await? {
        each(row.0);
    }
    Ok(())
}

/// How many artifacts the team has: what reading it whole would cost.
pub async fn index_size(conn: &mut PgConnection, team: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar("select count(*) from artifacts where team_id = $1").bind(team).fetch_one(conn).await
}

/// What the team's events after `after` changed: the artifacts they name, and whether one names
/// none (a change of the team, an agent or a token).
pub async fn index_changes(
    conn: &mut PgConnection,
    team: &str,
    after: i64,
) -> sqlx::Result<(Vec<String>, bool)> {
    let keys: Vec<Option<String>> =
        sqlx::query_scalar("select distinct artifact from events where team_id = $1 and seq > $2")
            .bind(team)
            .bind(after)
            .fetch_all(conn)
            .await?;
    let team_level = keys.iter().any(Option::is_none);
    Ok((keys.into_iter().flatten().collect(), team_level))
}
