use chrono::{DateTime, Utc};
use sqlx::types::Json;
use sqlx::{FromRow, PgConnection, Row};
use uuid::Uuid;

use crate::resources::events::EventData;

/// The channel [`append`] notifies, with `<team id> <seq>` as payload ([`notification`] reads
/// it); `listener` listens on it.
pub const CHANNEL: &str = "reviewlock_events";

/// The team and, when the payload carries it, the seq of a notification on [`CHANNEL`]. Team ids
/// are slugs (no space); a replica of an earlier version sends the team id alone.
pub fn notification(payload: &str) -> (&str, Option<i64>) {
    match payload.split_once(' ') {
        Some((team, seq)) => (team, seq.parse().ok()),
        None => (payload, None),
    }
}

/// An event to append to a team's log (R12).
#[derive(Debug)]
pub struct NewEvent<'a> {
    pub artifact: Option<&'a str>,
    /// The agent the change names (author, reviewer, assignee…), if any.
    pub actor: Option<String>,
    /// What changed: its `type` and `data` columns.
    pub data: EventData,
}

/// Appends the event, made by the token `token_id` named `token_name`, and returns its seq. The seq comes from the team's `team_seqs` row, under
/// its lock, held to commit: the lock orders commits by seq, so a poller reading `after=N` can
/// never see seq N+2 before N+1 commits. Only the write's own bookkeeping (its idempotency key's
/// stored reply, which records the seq) may follow it, to hold the lock no longer than needed.
///
/// The same statement notifies [`CHANNEL`] with the team id and the seq; Postgres delivers
/// the notification at commit (and never for a rollback), when the event is visible, which
/// wakes the team's long polls and streams, and tells the lockout index which seq committed.
pub async fn append(
    conn: &mut PgConnection,
    team: &str,
    (token_id, token_name): (Option<Uuid>, &str),
    event: NewEvent<'_>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = $1 returning last_event_seq),
              n as (select pg_notify($8, $1 || ' ' || s.last_event_seq) from s)
         insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data)
         select $1, s.last_event_seq, $2, $3, $4, $5, $6, $7 from s, n returning seq",
    )
    .bind(team)
    .bind(event.artifact)
    .bind(event.data.type_name())
    .bind(event.actor)
    .bind(token_id)
    .bind(token_name)
    .bind(Json(&event.data))
    .bind(CHANNEL)
    .fetch_one(conn)
    .await
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub artifact: Option<String>,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub actor: Option<String>,
    pub token_id: Option<Uuid>,
    pub token_name: Option<String>,
    /// As stored: read as its type by `EventData::parse`.
    pub data: Json<Box<serde_json::value::RawValue>>,
}

pub async fn page(
    conn: &mut PgConnection,
    team: &str,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<EventRow>> {
    sqlx::query_as(
        "select seq, at, artifact, type, actor, token_id, token_name, data from events
         where team_id = $1 and seq > $2 order by seq limit $3",
    )
    .bind(team)
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A page of the team's events after `after` with the team's last seq, in one statement and so
/// from one snapshot: the page is exactly as new as the seq. `None` when the team does not exist.
pub async fn tagged_page(
    conn: &mut PgConnection,
    team: &str,
    after: i64,
    limit: i64,
) -> sqlx::Result<Option<(i64, Vec<EventRow>)>> {
    let rows = sqlx::query(
        "select s.last_event_seq, e.seq, e.at, e.artifact, e.type, e.actor, e.token_id, e.token_name, e.data
         from team_seqs s left join lateral
             (select * from events e where e.team_id = s.team_id and e.seq > $2 order by e.seq limit $3) e on true
         where s.team_id = $1 order by e.seq",
    )
    .bind(team)
    .bind(after)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let seq: i64 = first.try_get("last_event_seq")?;
    // With no event after `after`, the one row has nulls where an event would be.
    let mut events = Vec::with_capacity(rows.len());
    for row in &rows {
        if row.try_get::<Option<i64>, _>("seq")?.is_some() {
            events.push(EventRow::from_row(row)?);
        }
    }
    Ok(Some((seq, events)))
}

#[cfg(test)]
mod tests {
    use super::notification;

    #[test]
    fn a_notification_names_its_team_and_seq() {
        assert_eq!(notification("team-1 42"), ("team-1", Some(42)));
        // A replica of an earlier version sends the team id alone.
        assert_eq!(notification("team-1"), ("team-1", None));
        assert_eq!(notification("team-1 x"), ("team-1", None));
    }
}
