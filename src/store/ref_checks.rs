//! What a ref check (R17) decides on, from one statement.

use serde::Deserialize;
use sqlx::PgConnection;
use sqlx::types::Json;

/// The team's policy and every artifact a commit's files could belong to.
#[derive(Debug, sqlx::FromRow)]
pub struct RefSnapshot {
    pub required_approvals: i32,
    pub artifacts: Json<Vec<RefArtifact>>,
}

/// An artifact with `paths` that is not abandoned, with the versions whose `ref` may name the
/// commit.
#[derive(Debug, Deserialize)]
pub struct RefArtifact {
    pub id: i64,
    pub key: String,
    pub paths: Vec<String>,
    pub current_version: i32,
    pub versions: Vec<RefVersionRow>,
}

#[derive(Debug, Deserialize)]
pub struct RefVersionRow {
    pub number: i32,
    pub git_ref: String,
    pub approvals: i64,
    pub rejections: i64,
}

/// The team `team`'s artifacts with paths that take writes (not abandoned), each with its
/// versions whose `ref` is a prefix of `sha` (lower case) or has it as a prefix, and their
/// verdicts counted; `None` when the team does not exist. The prefix test here only narrows the
/// rows: `domain::ref_matches` decides.
pub async fn load(conn: &mut PgConnection, team: &str, sha: &str) -> sqlx::Result<Option<RefSnapshot>> {
    sqlx::query_as(
        "select t.required_approvals, coalesce((
             select json_agg(json_build_object(
                 'id', a.id, 'key', a.key, 'paths', a.paths, 'current_version', a.current_version,
                 'versions', coalesce((
                     select json_agg(json_build_object(
                         'number', v.number, 'git_ref', v.git_ref,
                         'approvals', (select count(*) from reviews r where r.team_id = v.team_id and r.artifact_id = v.artifact_id
                                       and r.number = v.number and r.verdict = 'approve'),
                         'rejections', (select count(*) from reviews r where r.team_id = v.team_id and r.artifact_id = v.artifact_id
                                        and r.number = v.number and r.verdict = 'reject'))
                         order by v.number)
                     from versions v where v.team_id = a.team_id and v.artifact_id = a.id
                     and (starts_with(lower(v.git_ref), $2) or starts_with($2, lower(v.git_ref)))), '[]'))
                 order by a.key)
             from artifacts a where a.team_id = t.id and a.paths <> '{}' and a.state <> 'abandoned'), '[]') as artifacts
         from teams t where t.id = $1",
    )
    .bind(team)
    .bind(sha)
    .fetch_optional(conn)
    .await
}
