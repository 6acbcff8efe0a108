use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use crate::domain::AgentKind;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentRow {
    pub id: String,
    pub display_name: Option<String>,
    pub kind: AgentKind,
    pub roles: Vec<String>,
    pub can_review: bool,
    pub can_author: bool,
    pub expertise: Vec<String>,
    /// Other names of the agent (R16), in order.
    pub aliases: Vec<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

macro_rules! columns {
    () => {
        "id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at,
         array(select s.alias from agent_aliases s where s.team_id = agents.team_id and s.agent_id = agents.id
               order by s.alias collate \"C\") as aliases"
    };
}

pub async fn find(conn: &mut PgConnection, team: &str, id: &str) -> sqlx::Result<Option<AgentRow>> {
    sqlx::query_as(concat!("select ", columns!(), " from agents where team_id = $1 and id = $2"))
        .bind(team)
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn find_for_update(
    conn: &mut PgConnection,
    team: &str,
    id: &str,
) -> sqlx::Result<Option<AgentRow>> {
    sqlx::query_as(concat!(
        "select ",
        columns!(),
        " from agents where team_id = $1 and id = $2 for no key update"
    ))
    .bind(team)
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A page of the team's agents in id order, after `cursor`.
pub async fn list(
    conn: &mut PgConnection,
    team: &str,
    cursor: Option<&str>,
    limit: i64,
) -> sqlx::Result<Vec<AgentRow>> {
    sqlx::query_as(concat!(
        "select ",
        columns!(),
        " from agents where team_id = $1 and ($2::text is null or id > $2)
         order by id limit $3"
    ))
    .bind(team)
    .bind(cursor)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Inserts or updates the agent; `true` when it was created.
pub async fn upsert(conn: &mut PgConnection, team: &str, agent: &AgentRow) -> sqlx::Result<(AgentRow, bool)> {
    #[derive(sqlx::FromRow)]
    struct Upserted {
        #[sqlx(flatten)]
        agent: AgentRow,
        created: bool,
    }
    let row: Upserted = sqlx::query_as(concat!("insert into agents (team_id, id, display_name, kind, roles, can_review, can_author, expertise, active)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (team_id, id) do update set display_name = excluded.display_name, kind = excluded.kind,
             roles = excluded.roles, can_review = excluded.can_review, can_author = excluded.can_author,
             expertise = excluded.expertise, active = excluded.active, updated_at = now()
         returning ", columns!(), ", (xmax = 0) as created"))
    .bind(team)
    .bind(&agent.id)
    .bind(&agent.display_name)
    .bind(agent.kind)
    .bind(&agent.roles)
    .bind(agent.can_review)
    .bind(agent.can_author)
    .bind(&agent.expertise)
    .bind(agent.active)
    .fetch_one(&mut *conn)
    .await?;
    set_aliases(conn, team, &agent.id, &agent.aliases).await?;
    // As a read returns them: in byte order.
    let mut aliases = agent.aliases.clone();
    aliases.sort();
    Ok((AgentRow { aliases, ..row.agent }, row.created))
}

/// Replaces the agent's aliases. One that another agent holds violates `agent_aliases_pkey`.
async fn set_aliases(
    conn: &mut PgConnection,
    team: &str,
    agent: &str,
    aliases: &[String],
) -> sqlx::Result<()> {
    sqlx::query(
        "with gone as (delete from agent_aliases where team_id = $1 and agent_id = $2 and alias <> all($3))
         insert into agent_aliases (team_id, alias, agent_id)
         select $1, alias, $2 from unnest($3::text[]) alias
         where not exists (select from agent_aliases s where s.team_id = $1 and s.agent_id = $2 and s.alias = alias)",
    )
    .bind(team)
    .bind(agent)
    .bind(aliases)
    .execute(conn)
    .await?;
    Ok(())
}

/// Which of `names` name an agent of the team other than `agent`, by its id or one of its
/// aliases, each with the agent it names: an alias must name one agent (R16).
pub async fn names_taken(
    conn: &mut PgConnection,
    team: &str,
    agent: &str,
    names: &[String],
) -> sqlx::Result<Vec<(String, String)>> {
    sqlx::query_as(
        "select g.id, g.id from agents g where g.team_id = $1 and g.id <> $2 and g.id = any($3)
         union all
         select s.alias, s.agent_id from agent_aliases s where s.team_id = $1 and s.agent_id <> $2 and s.alias = any($3)",
    )
    .bind(team)
    .bind(agent)
    .bind(names)
    .fetch_all(conn)
    .await
}

/// One active lockout of an agent, for the agent's own view.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentLockoutRow {
    pub artifact: String,
    pub version: i32,
    pub reason: Option<String>,
    pub reviewer: String,
    pub locked_at: DateTime<Utc>,
}

pub async fn active_lockouts(
    conn: &mut PgConnection,
    team: &str,
    agent: &str,
) -> sqlx::Result<Vec<AgentLockoutRow>> {
    sqlx::query_as(
        "select a.key as artifact, l.number as version, r.reason, r.reviewer, l.locked_at
         from lockouts l join artifacts a on a.team_id = l.team_id and a.id = l.artifact_id
         join reviews r on r.team_id = l.team_id and r.id = l.review_id
         where l.team_id = $1 and l.agent_id = $2 and l.cleared_at is null
         order by a.key",
    )
    .bind(team)
    .bind(agent)
    .fetch_all(conn)
    .await
}
