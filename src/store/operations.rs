//! The statements operators' endpoints run: readiness, and the database's gauges of `/metrics`.

use sqlx::PgConnection;

/// Readiness: a statement reaches the database.
pub async fn ping(conn: &mut PgConnection) -> sqlx::Result<()> {
    sqlx::query("select 1").execute(conn).await.map(drop)
}

/// The server's active lockouts and open escalations, across teams: one row per team, kept by
/// triggers in `team_counters`.
pub async fn totals(conn: &mut PgConnection) -> sqlx::Result<(u64, u64)> {
    let (lockouts, escalations) = sqlx::query_as::<_, (i64, i64)>(
        "-- across teams: the server's totals, for /metrics
         select coalesce(sum(active_lockouts), 0)::bigint, coalesce(sum(open_escalations), 0)::bigint
         from team_counters",
    )
    .fetch_one(conn)
    .await?;
    Ok((lockouts.max(0) as u64, escalations.max(0) as u64))
}
