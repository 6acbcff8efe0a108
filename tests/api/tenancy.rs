//! Every team's rows are keyed by the team (docs/scaling.md): `team_id` leads every primary key,
//! unique constraint and foreign key of a team table, and every statement the service sends
//! names the team of the rows it touches, so that the tables can be distributed by `team_id` and
//! a team's work runs on one shard. These tests read the catalog, `EXPLAIN` every statement a
//! walk through the API sends (recorded by the proxy of `bench_sql`), and migrate a database
//! filled under the old keys.

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};

use crate::bench_sql::{Sent, Wire};
use crate::common::{ADMIN, Api};

/// The tables of no team, each with why.
const GLOBAL_TABLES: &[(&str, &str)] = &[
    ("server_tokens", "server-wide admin tokens act on every team"),
    ("_sqlx_migrations", "the schema's own history"),
];

/// The column that names a table's team: the team's own id for `teams`.
fn team_column(table: &str) -> &'static str {
    if table == "teams" { "id" } else { "team_id" }
}

fn is_global(table: &str) -> bool {
    GLOBAL_TABLES.iter().any(|(t, _)| *t == table)
}

/// Every place where the schema is not keyed by team: a table without its team column, a
/// primary key, unique constraint or unique index not led by it, a foreign key whose columns
/// (on either side) are not led by the teams'.
async fn violations(conn: &mut PgConnection) -> Vec<String> {
    let mut found = Vec::new();
    let tables: Vec<(String, bool)> = sqlx::query_as(
        "select c.relname::text, exists (select from pg_attribute a where a.attrelid = c.oid and not a.attisdropped
                                   and a.attname = case when c.relname = 'teams' then 'id' else 'team_id' end)
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and c.relkind in ('r', 'p') order by 1",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for (table, keyed) in &tables {
        if !keyed && !is_global(table) {
            found.push(format!("table {table} has no team_id column and is not one of the global tables"));
        }
    }
    /// A primary key, unique constraint or foreign key, with the first column on each side.
    #[derive(sqlx::FromRow)]
    struct Key {
        table: String,
        name: String,
        kind: String,
        first: Option<String>,
        referenced: Option<String>,
        referenced_first: Option<String>,
    }
    let keys: Vec<Key> = sqlx::query_as(
        "select c.relname::text as table, con.conname::text as name, con.contype::text as kind,
                (select attname::text from pg_attribute where attrelid = con.conrelid and attnum = con.conkey[1]) as first,
                (select relname::text from pg_class where oid = con.confrelid) as referenced,
                (select attname::text from pg_attribute where attrelid = con.confrelid and attnum = con.confkey[1])
                    as referenced_first
         from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and con.contype in ('p', 'u', 'f') order by 1, 2",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for Key { table, name, kind, first, referenced, referenced_first } in keys {
        if is_global(&table) {
            continue;
        }
        if first.as_deref() != Some(team_column(&table)) {
            found.push(format!("{table}.{name} ({kind}) does not lead with {}", team_column(&table)));
        }
        if let Some(referenced) = referenced {
            if is_global(&referenced) {
                found.push(format!("{table}.{name} references the global table {referenced}"));
            } else if referenced_first.as_deref() != Some(team_column(&referenced)) {
                found.push(format!("{table}.{name} references {referenced} by a key not led by its team"));
            }
        }
    }
    let indexes: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "select c.relname::text, ic.relname::text,
                (select attname::text from pg_attribute where attrelid = i.indrelid and attnum = i.indkey[0])
         from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class c on c.oid = i.indrelid
             join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = current_schema() and i.indisunique order by 1, 2",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for (table, index, first) in indexes {
        if !is_global(&table) && first.as_deref() != Some(team_column(&table)) {
            found.push(format!("unique index {index} on {table} does not lead with {}", team_column(&table)));
        }
    }
    found
}

#[sqlx::test]
async fn every_key_of_a_team_table_leads_with_its_team(pool: PgPool) {
    let mut conn = pool.acquire().await.unwrap();
    assert_eq!(violations(&mut conn).await, Vec::<String>::new());

    // The check catches each kind of slip: a table without a team, a key and a foreign key
    // not led by it, a unique index of one team's rows that ignores the team.
    sqlx::raw_sql(
        "create table stray (id bigint primary key);
         create unique index artifacts_by_id on artifacts (id);
         create table notes (team_id text not null, id bigint not null, artifact_id bigint,
             constraint notes_pkey primary key (id, team_id),
             constraint notes_artifact_fkey foreign key (artifact_id) references artifacts (id));",
    )
    .execute(&mut *conn)
    .await
    .unwrap();
    let found = violations(&mut conn).await.join("\n");
    for slip in ["table stray", "notes.notes_pkey", "notes.notes_artifact_fkey", "artifacts_by_id"] {
        assert!(found.contains(slip), "{slip} not reported in:\n{found}");
    }
}

// ---------------------------------------------------------------------------------------------
// Every statement, through EXPLAIN.

/// What a statement that reads across teams on purpose starts with, saying why.
const ACROSS_TEAMS: &str = "-- across teams:";

/// Drives every route the way a team's clients and an admin do, through the recording proxy.
async fn walk(api: &Api) {
    let t = "/v1/teams/acme";
    api.put(t, ADMIN, json!({ "display_name": "Acme" })).await.expect(201, None);
    api.put(t, ADMIN, json!({ "display_name": "Acme Inc" })).await.expect(200, None);
    api.put("/v1/teams/solo", ADMIN, json!({})).await.expect(201, None);

    let created = api.post("/v1/tokens", ADMIN, json!({ "name": "ops" })).await;
    let server = created.expect(201, None).clone();
    let server_secret = server["token"].as_str().unwrap().to_owned();
    api.get("/v1/tokens", &server_secret).await.expect(200, None);
    let body = json!({ "name": "coord", "scope": "coordinator" });
    let coord = api.post(&format!("{t}/tokens"), &server_secret, body).await.expect(201, None).clone();
    let coord = coord["token"].as_str().unwrap().to_owned();
    let body = json!({ "name": "user", "scope": "user" });
    let user = api.post(&format!("{t}/tokens"), ADMIN, body).await.expect(201, None).clone();
    let user_id = user["id"].as_str().unwrap().to_owned();
    let user = user["token"].as_str().unwrap().to_owned();
    api.get(&format!("{t}/tokens"), ADMIN).await.expect(200, None);
    api.get(t, &coord).await.expect(200, None);

    for (team, agent, reviewer) in [(t, "a", false), (t, "b", false), (t, "rev", true)]
        .into_iter()
        .chain([("/v1/teams/solo", "s", false), ("/v1/teams/solo", "rev", true)])
    {
        let body = json!({ "roles": ["engineer"], "can_review": reviewer, "can_author": !reviewer });
        api.put(&format!("{team}/agents/{agent}"), ADMIN, body).await.ok();
    }
    let body = json!({ "name": "agent-a", "scope": "agent", "agent": "a" });
    api.post(&format!("{t}/tokens"), ADMIN, body).await.expect(201, None);
    api.get(&format!("{t}/agents"), &coord).await.expect(200, None);

    // An artifact through a whole cycle, the first write with an Idempotency-Key and its replay.
    let body = json!({ "key": "one", "title": "One", "paths": ["src/one/**"], "author": "a" });
    let key = [("idempotency-key", "create-one")];
    let path = format!("{t}/artifacts");
    api.send_with(Method::POST, &path, Some(&coord), Some(body.clone()), &key).await.expect(201, None);
    api.send_with(Method::POST, &path, Some(&coord), Some(body), &key).await.ok();
    let one = format!("{t}/artifacts/one");
    let reply = api.get(&one, &coord).await;
    let etag = reply.headers["etag"].to_str().unwrap().to_owned();
    api.send_with(Method::GET, &one, Some(&coord), None, &[("if-none-match", &etag)]).await.expect(304, None);
    let reject = json!({ "reviewer": "rev", "verdict": "reject", "reason": "No tests.",
                         "remedy": { "action": "reassign" } });
    api.post(&format!("{one}/versions/1/reviews"), &coord, reject.clone()).await.expect(201, None);
    api.get(&format!("{t}/artifacts?state=changes_requested&agent=a"), &coord).await.expect(200, None);
    api.get(&format!("{t}/lockouts?agent=a"), &coord).await.expect(200, None);
    api.get(&format!("{t}/agents/a"), &coord).await.expect(200, None);
    let check = json!({ "agent": "a", "paths": ["src/one/lib.rs"] });
    api.post(&format!("{t}/checks"), &coord, check).await.expect(200, None);
    let check = json!({ "agent": "a", "artifact": "one", "paths": ["src/one/lib.rs"] });
    api.post(&format!("{t}/checks"), &coord, check).await.ok();
    let check = json!({ "agent": "rev", "paths": ["src/one/lib.rs"] });
    api.post(&format!("{t}/checks"), &coord, check).await.ok();
    api.post(&format!("{one}/assignment"), &coord, json!({ "agent": "b" })).await.expect(201, None);
    api.delete(&format!("{one}/assignment"), &coord).await.ok();
    api.post(&format!("{one}/assignment"), &coord, json!({ "agent": "b" })).await.expect(201, None);
    let revise = json!({ "author": "b", "ref": "r2" });
    api.post(&format!("{one}/versions"), &coord, revise).await.expect(201, None);
    let approve = json!({ "reviewer": "rev", "verdict": "approve" });
    api.post(&format!("{one}/versions/2/reviews"), &coord, approve).await.expect(201, None);
    let ref_check = json!({ "ref": "0123456789abcdef", "paths": ["src/one/lib.rs"] });
    api.post(&format!("{t}/ref-checks"), &coord, ref_check).await.expect(200, None);
    api.get(&format!("{one}/versions"), &coord).await.expect(200, None);
    api.get(&format!("{one}/versions/1"), &coord).await.expect(200, None);

    // A lockout lifted by the user.
    let body = json!({ "key": "two", "title": "Two", "paths": ["src/two/**"], "author": "a" });
    api.post(&path, &coord, body).await.expect(201, None);
    api.post(&format!("{t}/artifacts/two/versions/1/reviews"), &coord, reject.clone())
        .await
        .expect(201, None);
    let lift = json!({ "reason": "Not this agent's file." });
    api.post(&format!("{t}/artifacts/two/lockouts/a/lift"), &user, lift).await.expect(200, None);

    // A deadlock (a team of one author) and its resolution.
    let solo = "/v1/teams/solo";
    let body = json!({ "key": "mod", "title": "Mod", "author": "s" });
    api.post(&format!("{solo}/artifacts"), ADMIN, body).await.expect(201, None);
    api.post(&format!("{solo}/artifacts/mod/versions/1/reviews"), ADMIN, reject).await.expect(201, None);
    api.get(&format!("{solo}/escalations"), ADMIN).await.expect(200, None);
    let resolve = json!({ "action": "abandon", "reason": "Dropped." });
    let solo_user = api.token("solo", "user").await;
    api.post(&format!("{solo}/artifacts/mod/resolution"), &solo_user, resolve).await.ok();

    api.get(&format!("{t}/events?after=0&limit=100"), &coord).await.expect(200, None);
    api.delete(&format!("{t}/tokens/{user_id}"), ADMIN).await.ok();
    let server_id = server["id"].as_str().unwrap();
    api.delete(&format!("/v1/tokens/{server_id}"), ADMIN).await.ok();
}

/// The conditions of a plan node that filter or join rows.
fn conditions(node: &Value) -> Vec<String> {
    [
        "Index Cond",
        "Filter",
        "Recheck Cond",
        "Hash Cond",
        "Merge Cond",
        "Join Filter",
        "One-Time Filter",
        "TID Cond",
    ]
    .iter()
    .filter_map(|k| node[k].as_str().map(str::to_owned))
    .collect()
}

/// Each scan of a team table in the plan (`EXPLAIN VERBOSE`) must find its rows by team: a
/// condition on its team column of its own, a condition above it on `<alias>.<team column>`
/// (a join's), or, for a hashed subplan, the team among the columns it hashes.
fn unkeyed_scans(node: &Value, above: &mut Vec<String>, out: &mut Vec<String>) {
    let own = conditions(node);
    if let Some(table) = node["Relation Name"].as_str()
        && node["Node Type"] != "ModifyTable"
        && !is_global(table)
    {
        let column = team_column(table);
        let alias = node["Alias"].as_str().unwrap_or(table);
        let qualified = format!("{alias}.{column}");
        let named = |c: &String| {
            c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '.')).any(|w| w == column)
                || c.contains(&qualified)
        };
        // A hashed subplan: the rows hashed carry the team, which the probe compares.
        let hashed = node["Subplan Name"].as_str().is_some_and(|name| {
            let outputs = node["Output"].as_array().into_iter().flatten();
            above.iter().any(|c| c.contains(&format!("hashed {name}")))
                && outputs.filter_map(Value::as_str).any(|o| o == qualified)
        });
        if !own.iter().any(named) && !hashed && !above.iter().any(|c| c.contains(&qualified)) {
            out.push(format!("{} on {table} {alias}: no {column} condition", node["Node Type"]));
        }
    }
    let depth = above.len();
    above.extend(own);
    for child in node["Plans"].as_array().into_iter().flatten() {
        unkeyed_scans(child, above, out);
    }
    above.truncate(depth);
}

/// An insert into a team table names the team among its columns.
fn unkeyed_insert(sql: &str) -> Option<String> {
    let lower = sql.to_lowercase();
    let at = lower.find("insert into ")?;
    let rest = &lower[at + "insert into ".len()..];
    let table: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    let columns = &rest[rest.find('(')? + 1..rest.find(')')?];
    let keyed = is_global(&table) || columns.split(',').any(|c| c.trim() == team_column(&table));
    (!keyed).then(|| format!("insert into {table} without {}", team_column(&table)))
}

#[sqlx::test]
async fn every_statement_finds_its_rows_by_team(pool: PgPool) {
    let wire = Wire::start(&pool).await;
    let api = Api::new(wire.pool.clone());
    walk(&api).await;
    let mut seen: Vec<Sent> = Vec::new();
    for sent in wire.log.take_sent() {
        if !sent.types.is_empty() && !seen.iter().any(|s| s.sql == sent.sql) {
            seen.push(sent);
        }
    }
    api.pool.close().await;
    assert!(seen.len() >= 40, "the walk sent only {} distinct statements", seen.len());

    let mut conn = pool.acquire().await.unwrap();
    // The plan every execution could use: conditions on parameters, not on their values.
    sqlx::query("set plan_cache_mode = force_generic_plan").execute(&mut *conn).await.unwrap();
    let (mut failures, mut across) = (Vec::new(), Vec::new());
    for sent in &seen {
        if sent.sql.trim_start().starts_with(ACROSS_TEAMS) {
            across.push(sent.sql.lines().next().unwrap().to_owned());
            continue;
        }
        let types: Vec<String> = sqlx::query_scalar(
            "select case when oid = 0 then 'unknown' else format_type(oid, null) end
             from unnest($1::oid[]) with ordinality as p(oid, n) order by n",
        )
        .bind(sent.types.iter().map(|&t| sqlx::postgres::types::Oid(t)).collect::<Vec<_>>())
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        let prepare = format!("prepare walked ({}) as {}", types.join(", "), sent.sql);
        sqlx::raw_sql(sqlx::AssertSqlSafe(prepare.clone()))
            .execute(&mut *conn)
            .await
            .unwrap_or_else(|e| panic!("{e}: {prepare}"));
        let nulls = vec!["null"; types.len()].join(", ");
        let plan: Value = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "explain (verbose, format json) execute walked ({nulls})"
        )))
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        sqlx::raw_sql("deallocate walked").execute(&mut *conn).await.unwrap();
        let mut unkeyed = Vec::new();
        unkeyed_scans(&plan[0]["Plan"], &mut Vec::new(), &mut unkeyed);
        unkeyed.extend(unkeyed_insert(&sent.sql));
        if !unkeyed.is_empty() {
            let sql = sent.sql.split_whitespace().collect::<Vec<_>>().join(" ");
            failures.push(format!("{sql}\n    {}", unkeyed.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "statements not keyed by team:\n{}", failures.join("\n"));
    // The marked exceptions the walk meets: a bearer secret's lookup, nothing else.
    assert_eq!(across, ["-- across teams: a bearer secret names no team"], "{across:?}");
}

// ---------------------------------------------------------------------------------------------
// The migration to team keys.

/// Every row of `table`, each as JSON without the `skip` column, in a stable order.
async fn rows(conn: &mut PgConnection, table: &str, skip: &str) -> Vec<Value> {
    let sql = format!("select to_jsonb(t) - '{skip}' from {table} t order by (to_jsonb(t) - '{skip}')::text");
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(&mut *conn).await.unwrap()
}

const TEAM_TABLES: &[&str] = &[
    "teams",
    "team_seqs",
    "team_counters",
    "agents",
    "artifacts",
    "versions",
    "version_contributors",
    "reviews",
    "lockouts",
    "assignments",
    "escalations",
    "events",
];

#[sqlx::test(migrations = false)]
async fn migrating_to_team_keys_keeps_every_row(pool: PgPool) {
    let mut conn = pool.acquire().await.unwrap();
    // This test fills the schema as it was before migration 6, the one to team keys.
    let tenant_keys = 6;
    assert!(
        reviewlock::MIGRATOR
            .iter()
            .any(|m| m.version == tenant_keys && m.description.contains("tenant keys"))
    );
    reviewlock::MIGRATOR.run_to(tenant_keys - 1, &mut *conn).await.unwrap();

    // Two teams with the same artifact key and agent ids, every kind of row, under the old keys:
    // alpha's artifact deadlocked (a rejection, a lockout, an open escalation), beta's approved
    // after a reassignment, with a contributor; a server-wide token, team tokens, idempotency keys.
    let secret = "rl_migrated-server-token";
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        r#"insert into teams (id, display_name) values ('alpha', 'Alpha'), ('beta', null);
        insert into agents (team_id, id, can_review, can_author) values
            ('alpha', 'a', false, true), ('alpha', 'rev', true, false),
            ('beta', 'a', false, true), ('beta', 'b', false, true), ('beta', 'rev', true, false);
        insert into tokens (id, team_id, name, scope, agent_id, secret_hash) values
            ('00000000-0000-0000-0000-000000000001', null, 'ops', 'admin', null, '\x{hash}'),
            ('00000000-0000-0000-0000-000000000002', 'alpha', 'coord', 'coordinator', null, '\x02'),
            ('00000000-0000-0000-0000-000000000003', 'beta', 'agent-a', 'agent', 'a', '\x03');
        insert into artifacts (team_id, key, title, paths, state, original_author, pending_remedy) values
            ('alpha', 'x', 'X', '{{src/x/**}}', 'deadlocked', 'a',
             '{{"action": "reassign", "agent": null, "expertise": [], "reviewer": "rev", "reason": "No tests."}}'),
            ('beta', 'x', 'X', '{{}}', 'approved', 'a', null);
        insert into versions (artifact_id, number, team_id, cycle, author, git_ref)
            select id, 1, team_id, 1, 'a', 'r1' from artifacts;
        insert into versions (artifact_id, number, team_id, cycle, author, git_ref)
            select id, 2, team_id, 1, 'b', 'r2' from artifacts where team_id = 'beta';
        insert into version_contributors (artifact_id, number, team_id, agent_id, role, position)
            select id, 2, team_id, 'a', 'advisor', 1 from artifacts where team_id = 'beta';
        insert into reviews (artifact_id, number, team_id, reviewer, verdict, reason, remedy)
            select id, 1, team_id, 'rev', 'reject', 'No tests.', '{{"action": "reassign", "agent": null, "expertise": []}}'
            from artifacts;
        insert into reviews (artifact_id, number, team_id, reviewer, verdict)
            select id, 2, team_id, 'rev', 'approve' from artifacts where team_id = 'beta';
        insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id, cleared_at, cleared_by)
            select r.artifact_id, r.team_id, 'a', 1, 1, r.id,
                   case when r.team_id = 'beta' then now() end, case when r.team_id = 'beta' then 'approval' end
            from reviews r where r.verdict = 'reject';
        insert into assignments (artifact_id, team_id, agent_id, cycle, assigned_by, ended_at, ended_by)
            select id, team_id, 'b', 1, 'coordinator', now(), 'version' from artifacts where team_id = 'beta';
        insert into escalations (artifact_id, team_id, details)
            select id, team_id, '{{"authors": ["a"]}}' from artifacts where team_id = 'alpha';
        update team_seqs set last_event_seq = 2;
        insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) values
            ('alpha', 1, 'x', 'artifact.created', 'a', '00000000-0000-0000-0000-000000000002', 'coord', '{{}}'),
            ('alpha', 2, 'x', 'review.rejected', 'rev', null, 'server-admin', '{{}}'),
            ('beta', 1, 'x', 'artifact.created', 'a', null, 'server-admin', '{{}}'),
            ('beta', 2, 'x', 'review.approved', 'rev', '00000000-0000-0000-0000-000000000003', 'agent-a', '{{}}');
        insert into idempotency_keys (token_id, key, fingerprint, status, body, expires_at) values
            ('00000000-0000-0000-0000-000000000002', 'k1', '\x01', 201, '{{}}', now() + interval '1 day'),
            ('00000000-0000-0000-0000-000000000003', 'k1', '\x02', 201, '{{}}', now() + interval '1 day'),
            ('00000000-0000-0000-0000-000000000001', 'k1', '\x03', 200, '{{}}', now() + interval '1 day');"#,
        hash = hex::encode(reviewlock::auth::hash_secret(secret)),
    )))
    .execute(&mut *conn)
    .await
    .unwrap();
    let mut before = Vec::new();
    for table in TEAM_TABLES {
        before.push(rows(&mut conn, table, "").await);
    }
    let tokens_before = rows(&mut conn, "tokens", "").await;
    let keys_before = rows(&mut conn, "idempotency_keys", "").await;

    // Migration 6 alone: later ones may add columns the rows compared below did not have.
    reviewlock::MIGRATOR.run_to(tenant_keys, &mut *conn).await.unwrap();

    for (table, before) in TEAM_TABLES.iter().zip(before) {
        assert_eq!(rows(&mut conn, table, "").await, before, "the rows of {table}");
    }
    // The server-wide token moved to server_tokens, as it was.
    let tokens: Vec<Value> = sqlx::query_scalar(
        "select to_jsonb(t) from (select id, team_id, name, scope, agent_id, secret_hash, created_at, revoked_at from tokens
                                  union all
                                  select id, null, name, 'admin', null, secret_hash, created_at, revoked_at from server_tokens) t
         order by to_jsonb(t)::text",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(tokens, tokens_before);
    let server: Vec<String> =
        sqlx::query_scalar("select name from server_tokens").fetch_all(&mut *conn).await.unwrap();
    assert_eq!(server, ["ops"]);
    // Each idempotency key went to its token's team; the server-wide token's to no team.
    assert_eq!(rows(&mut conn, "idempotency_keys", "team_id").await, keys_before);
    let teams: Vec<(String, String)> =
        sqlx::query_as("select token_id::text, team_id from idempotency_keys order by token_id")
            .fetch_all(&mut *conn)
            .await
            .unwrap();
    let expected = [
        ("00000000-0000-0000-0000-000000000001", ""),
        ("00000000-0000-0000-0000-000000000002", "alpha"),
        ("00000000-0000-0000-0000-000000000003", "beta"),
    ];
    assert_eq!(teams, expected.map(|(a, b)| (a.to_owned(), b.to_owned())));

    // Every key now leads with the team, and a row can no longer reference another team's.
    assert_eq!(violations(&mut conn).await, Vec::<String>::new());
    let crossed = sqlx::query(
        "insert into versions (artifact_id, number, team_id, cycle, author)
         select id, 3, 'beta', 1, 'b' from artifacts where team_id = 'alpha'",
    )
    .execute(&mut *conn)
    .await
    .unwrap_err();
    assert_eq!(crossed.as_database_error().unwrap().constraint(), Some("versions_artifact_fkey"));
    // The migrations after it, so the service finds the schema it expects.
    reviewlock::MIGRATOR.run(&mut *conn).await.unwrap();
    drop(conn);

    // The service reads the migrated rows as they were: alpha's artifact still deadlocked with
    // its lockout and escalation, through the server-wide token that moved.
    let api = Api::new(pool);
    let alpha = api.get("/v1/teams/alpha/artifacts/x", secret).await;
    let alpha = alpha.expect(200, None);
    assert_eq!(alpha["state"], "deadlocked");
    assert_eq!(alpha["lockouts"][0]["agent"], "a");
    assert!(alpha["escalation"]["opened_at"].is_string(), "{alpha}");
    let beta = api.get("/v1/teams/beta/artifacts/x/versions", secret).await;
    let versions = beta.expect(200, None)["items"].as_array().unwrap().clone();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[1]["reviews"][0]["verdict"], "approve");
    // A new artifact of alpha is written under the new keys.
    let body = json!({ "key": "y", "title": "Y", "author": "a" });
    api.post("/v1/teams/alpha/artifacts", secret, body).await.expect(201, None);
    api.pool.close().await;
}
