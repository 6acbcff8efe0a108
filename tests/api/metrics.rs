//! `GET /metrics`: request, refusal and protocol counters, and the gauges kept by triggers.
//!
//! Every test of this binary shares the process-wide recorder, so a test reading `/metrics`
//! asserts increases of at least what it did. A test needing exact counts records into its own
//! recorder, set as this thread's default (`#[sqlx::test]` runs on a current-thread runtime, so
//! the handlers record on the test's thread).

use std::collections::HashMap;
use std::time::Duration;

use axum::http::Method;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusRecorder};
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

use crate::common::{ADMIN, Api, Reply};
use crate::examples::Team;

const ARTIFACT: &str = "/v1/teams/{team}/artifacts";
const REVIEWS: &str = "/v1/teams/{team}/artifacts/{key}/versions/{n}/reviews";
const ASSIGNMENT: &str = "/v1/teams/{team}/artifacts/{key}/assignment";
const RESOLUTION: &str = "/v1/teams/{team}/artifacts/{key}/resolution";

/// A metrics page: each series (name and labels) with its value.
#[derive(Debug, Default)]
pub(crate) struct Page(Vec<(String, HashMap<String, String>, f64)>);

impl Page {
    fn parse(text: &str) -> Page {
        let mut series = Vec::new();
        for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (key, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("a sample line: {line}"));
            let value: f64 = value.parse().unwrap_or_else(|_| panic!("a sample value: {line}"));
            let (name, labels) = match key.split_once('{') {
                Some((name, rest)) => (name, labels(rest.strip_suffix('}').expect("labels end with }"))),
                None => (key, HashMap::new()),
            };
            series.push((name.to_owned(), labels, value));
        }
        Page(series)
    }

    /// The sum of the series named `name` that carry every label of `labels`.
    fn sum(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.0
            .iter()
            .filter(|(n, l, _)| {
                n == name && labels.iter().all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
            })
            .map(|(_, _, v)| v)
            .sum()
    }

    pub(crate) fn has(&self, name: &str, labels: &[(&str, &str)]) -> bool {
        self.0.iter().any(|(n, l, _)| {
            n == name && labels.iter().all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
        })
    }
}

/// `k="v",k2="v2"` (values escape `\`, `"` and newlines).
fn labels(text: &str) -> HashMap<String, String> {
    let mut labels = HashMap::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (key, after) = rest.split_once("=\"").expect("a label is k=\"v\"");
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            match chars.next().expect("a label value ends with a quote") {
                (_, '\\') => match chars.next().expect("an escape").1 {
                    'n' => value.push('\n'),
                    c => value.push(c),
                },
                (i, '"') => break i,
                (_, c) => value.push(c),
            }
        };
        labels.insert(key.to_owned(), value);
        rest = after[end + 1..].strip_prefix(',').unwrap_or(&after[end + 1..]);
    }
    labels
}

pub(crate) async fn scrape(api: &Api) -> (Reply, Page) {
    let reply = api.send(Method::GET, "/metrics", None, None).await;
    reply.expect(200, None);
    let page = Page::parse(reply.body.as_str().expect("a text page"));
    (reply, page)
}

/// A series, its labels, and by how much it should grow.
type Expected = (&'static str, Vec<(&'static str, &'static str)>, f64);

/// `n` POST requests answered by `route` with `status`.
fn posts(route: &'static str, status: &'static str, n: f64) -> Expected {
    ("reviewlock_http_requests_total", vec![("method", "POST"), ("route", route), ("status", status)], n)
}

/// The same requests, in the latency histogram.
fn timed_posts(route: &'static str, status: &'static str, n: f64) -> Expected {
    let (_, labels, n) = posts(route, status, n);
    ("reviewlock_http_request_duration_seconds_count", labels, n)
}

/// The protocol scenario: example 1 (create, reject, a refused assignment of the locked-out
/// author, assign, revise, approve), then example 3's deadlock and the user's resolution.
/// Returns what it did.
async fn scenario(t: &Team) -> Vec<Expected> {
    t.create("auth", "a").await.expect(201, None);
    t.reject("auth", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("auth", "a").await.expect(409, Some("agent_locked_out"));
    t.assign("auth", "b").await.expect(201, None);
    t.version("auth", json!({ "author": "b", "ref": "r2" })).await.expect(201, None);
    t.approve("auth", 2).await.expect(201, None);

    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "b").await.expect(201, None);
    t.version("module", json!({ "author": "b" })).await.expect(201, None);
    t.reject("module", 2, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("module", "c").await.expect(201, None);
    t.version("module", json!({ "author": "c" })).await.expect(201, None);
    let deadlocked = t.reject("module", 3, json!({ "action": "reassign" })).await;
    assert_eq!(deadlocked.expect(201, None)["artifact"]["state"], "deadlocked");
    t.api.agent("t", "d", json!({})).await;
    let body = json!({ "action": "assign", "agent": "d", "reason": "fresh eyes" });
    let resolved = t.api.post(&t.url("/artifacts/module/resolution"), &t.user, body).await;
    assert_eq!(resolved.expect(200, None)["state"], "in_revision");

    vec![
        ("reviewlock_reviews_total", vec![("verdict", "reject")], 4.0),
        ("reviewlock_reviews_total", vec![("verdict", "approve")], 1.0),
        ("reviewlock_lockouts_created_total", vec![], 4.0),
        ("reviewlock_deadlocks_opened_total", vec![], 1.0),
        ("reviewlock_deadlocks_resolved_total", vec![("action", "assign")], 1.0),
        ("reviewlock_refusals_total", vec![("code", "agent_locked_out")], 1.0),
        posts(ARTIFACT, "201", 2.0),
        posts(REVIEWS, "201", 5.0),
        posts(ASSIGNMENT, "409", 1.0),
        posts(ASSIGNMENT, "201", 3.0),
        posts(RESOLUTION, "200", 1.0),
        timed_posts(REVIEWS, "201", 5.0),
    ]
}

#[sqlx::test]
async fn metrics_answer_without_a_token(pool: PgPool) {
    let api = Api::new(pool);
    refresh(&api).await;
    scrape(&api).await;
    // A token, even a bad one, changes nothing.
    api.get("/metrics", "garbage").await.expect(200, None);
    let (reply, page) = scrape(&api).await;
    let content_type = reply.headers["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/plain; version=0.0.4"), "{content_type}");

    // Every series is described; the earlier scrapes of this test were counted and timed.
    let text = reply.body.as_str().unwrap();
    for (name, kind) in [
        ("reviewlock_http_requests_total", "counter"),
        ("reviewlock_http_request_duration_seconds", "histogram"),
        ("reviewlock_active_lockouts", "gauge"),
        ("reviewlock_open_escalations", "gauge"),
        ("reviewlock_db_pool_max", "gauge"),
        ("reviewlock_db_pool_size", "gauge"),
        ("reviewlock_db_pool_idle", "gauge"),
        ("reviewlock_db_pool_in_use", "gauge"),
        ("reviewlock_db_pool_waiting", "gauge"),
    ] {
        assert!(text.contains(&format!("# HELP {name} ")), "{name} is described: {text}");
        assert!(text.contains(&format!("# TYPE {name} {kind}\n")), "{name} is a {kind}: {text}");
    }
    let scrapes = [("method", "GET"), ("route", "/metrics"), ("status", "200")];
    assert!(page.sum("reviewlock_http_requests_total", &scrapes) >= 2.0, "{page:?}");
    // The latency buckets run from 1 ms to 10 s.
    for le in ["0.001", "0.01", "0.1", "1", "10", "+Inf"] {
        let bucket = [("route", "/metrics"), ("le", le)];
        assert!(page.has("reviewlock_http_request_duration_seconds_bucket", &bucket), "le={le}");
    }

    // In the spec, as text/plain and without auth.
    let spec = serde_json::to_value(reviewlock::openapi()).unwrap();
    let op = &spec["paths"]["/metrics"]["get"];
    assert!(op["responses"]["200"]["content"]["text/plain"].is_object(), "{op}");
    assert_eq!(op["security"], json!([]), "/metrics needs no auth");
}

/// Without a database the page is still served, counting the 503s; once a refresh of the
/// database's gauges fails they are left out rather than shown stale.
#[sqlx::test]
async fn the_page_is_served_while_the_database_is_down(pool: PgPool) {
    let api = Api::new(pool);
    refresh(&api).await;
    api.state.pool.close().await;
    api.put("/v1/teams/alpha", ADMIN, json!({})).await.expect(503, Some("unavailable"));
    let (_, page) = scrape(&api).await;
    assert!(page.has("reviewlock_active_lockouts", &[]), "still the last values read");
    refresh(&api).await;
    let (_, page) = scrape(&api).await;
    assert!(page.sum("reviewlock_refusals_total", &[("code", "unavailable")]) >= 1.0);
    assert!(page.has("reviewlock_db_pool_size", &[]));
    assert!(!page.has("reviewlock_active_lockouts", &[]));
    assert!(!page.has("reviewlock_open_escalations", &[]));
}

/// What `serve`'s background task does every few seconds.
pub(crate) async fn refresh(api: &Api) {
    api.state.database_gauges.refresh(&api.state.pool).await;
}

/// A scrape reads nothing from the database: with every connection of the pool taken (a
/// database that does not answer looks the same from here), it answers at once with the
/// gauges last read.
#[sqlx::test]
async fn a_scrape_never_waits_for_the_database(pool: PgPool) {
    let options = (*pool.connect_options()).clone();
    let single = PgPoolOptions::new().max_connections(1).acquire_timeout(Duration::from_secs(2));
    let single = single.connect_with(options).await.unwrap();
    let api = Api::with_state(pool, |s| s.pool = reviewlock::store::Db::new(single));
    refresh(&api).await;
    let held = api.state.pool.begin().await.unwrap();
    let started = std::time::Instant::now();
    let (_, page) = scrape(&api).await;
    eprintln!(
        "hostile load: a scrape with every pooled connection taken answered in {:?} (acquire timeout 2 s)",
        started.elapsed()
    );
    assert_eq!(page.sum("reviewlock_active_lockouts", &[]), 0.0, "the gauges last read: {page:?}");
    assert!(page.has("reviewlock_open_escalations", &[]));
    assert_eq!(page.sum("reviewlock_db_pool_in_use", &[]), 1.0);
    drop(held);
}

/// Every series whose labels are known exists from the start, at 0, so a dashboard shows 0
/// after a restart rather than no data.
#[sqlx::test]
async fn every_known_series_exists_at_0_from_the_start(pool: PgPool) {
    let mut series: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("reviewlock_lockouts_created_total", vec![]),
        ("reviewlock_deadlocks_opened_total", vec![]),
        ("reviewlock_reviews_total", vec![("verdict", "approve")]),
        ("reviewlock_reviews_total", vec![("verdict", "reject")]),
        ("reviewlock_deadlocks_resolved_total", vec![("action", "assign")]),
        ("reviewlock_deadlocks_resolved_total", vec![("action", "abandon")]),
    ];
    for code in reviewlock::domain::Code::ALL {
        series.push(("reviewlock_refusals_total", vec![("code", code.as_str())]));
    }
    // The process's page, whatever other tests have counted meanwhile.
    let api = Api::new(pool);
    let (_, page) = scrape(&api).await;
    let missing: Vec<_> = series.iter().filter(|(name, labels)| !page.has(name, labels)).collect();
    eprintln!(
        "hostile load: {} of {} known series on a first scrape; missing: {missing:?}",
        series.len() - missing.len(),
        series.len()
    );
    assert!(missing.is_empty(), "missing: {missing:?}");
    // A recorder as a fresh process starts it: each at 0.
    let recorder: PrometheusRecorder = PrometheusBuilder::new().build_recorder();
    metrics::with_local_recorder(&recorder, reviewlock::metrics::describe);
    let page = Page::parse(&recorder.handle().render());
    for (name, labels) in &series {
        assert!(page.has(name, labels), "{name}{labels:?} at start");
        assert_eq!(page.sum(name, labels), 0.0, "{name}{labels:?}");
    }
}

#[sqlx::test]
async fn the_page_counts_the_protocol(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let (_, before) = scrape(&t.api).await;
    let expected = scenario(&t).await;
    t.api.get("/nowhere", &t.coord).await.expect(404, Some("not_found"));
    let (_, after) = scrape(&t.api).await;
    let unmatched = vec![("method", "GET"), ("route", "unmatched"), ("status", "404")];
    let not_found = vec![("code", "not_found")];
    let more =
        [("reviewlock_http_requests_total", unmatched, 1.0), ("reviewlock_refusals_total", not_found, 1.0)];
    // Other tests run at the same time on the same recorder: at least what this one did.
    for (name, labels, n) in expected.iter().cloned().chain(more) {
        let delta = after.sum(name, &labels) - before.sum(name, &labels);
        assert!(delta >= n, "{name}{labels:?} rose by {delta}, expected at least {n}");
    }
}

/// The scenario recorded into a recorder of its own: exact counts, and nothing counted for a
/// refused write, a write whose commit fails, or a replay.
#[sqlx::test]
async fn protocol_counters_count_only_committed_writes(pool: PgPool) {
    let recorder: PrometheusRecorder = PrometheusBuilder::new().build_recorder();
    let handle = recorder.handle();
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    let _local = metrics::set_default_local_recorder(&recorder);
    let expected = scenario(&t).await;

    // Refused by a rule: rolled back, a refusal, not a review.
    t.create("other", "a").await.expect(201, None);
    t.reject("other", 1, json!({ "action": "reassign", "agent": "a" }))
        .await
        .expect(409, Some("locked_out_agent_named"));
    // Refused at commit: the transaction fails after the review decided everything.
    sqlx::query(
        "create function fail_commit() returns trigger language plpgsql as $$
         begin raise exception 'commit refused by the test'; end $$",
    )
    .execute(&t.api.pool)
    .await
    .unwrap();
    sqlx::query(
        "create constraint trigger fail_commit after insert on events deferrable initially deferred
         for each row when (new.data ->> 'reason' = 'fail at commit') execute function fail_commit()",
    )
    .execute(&t.api.pool)
    .await
    .unwrap();
    let body = json!({ "reviewer": "q", "verdict": "reject", "reason": "fail at commit",
                       "remedy": { "action": "reassign" } });
    t.review("other", 1, body).await.expect(500, Some("internal"));
    assert_eq!(t.status("other").await["lockouts"], json!([]), "the failed commit left nothing");
    // A replay runs nothing: counted as a request, not as a review.
    let review = json!({ "reviewer": "q", "verdict": "approve" });
    let path = t.url("/artifacts/other/versions/1/reviews");
    for _ in 0..2 {
        t.api
            .send_with(
                Method::POST,
                &path,
                Some(&t.coord),
                Some(review.clone()),
                &[("idempotency-key", "k1")],
            )
            .await
            .expect(201, None);
    }

    let page = Page::parse(&handle.render());
    let more = [
        ("reviewlock_reviews_total", vec![("verdict", "approve")], 1.0),
        ("reviewlock_refusals_total", vec![("code", "locked_out_agent_named")], 1.0),
        ("reviewlock_refusals_total", vec![("code", "internal")], 1.0),
        posts(REVIEWS, "201", 2.0),
        posts(ARTIFACT, "201", 1.0),
        timed_posts(REVIEWS, "201", 2.0),
        posts(REVIEWS, "500", 1.0),
    ];
    let mut totals: Vec<Expected> = Vec::new();
    for (name, labels, n) in expected.into_iter().chain(more) {
        match totals.iter_mut().find(|(m, l, _)| *m == name && *l == labels) {
            Some(total) => total.2 += n,
            None => totals.push((name, labels, n)),
        }
    }
    for (name, labels, n) in totals {
        assert_eq!(page.sum(name, &labels), n, "{name}{labels:?}");
    }
    // Every refusal, and nothing else.
    assert_eq!(page.sum("reviewlock_refusals_total", &[]), 3.0, "{page:?}");
}

/// The gauges are the database's counts, and the pool's.
#[sqlx::test]
async fn gauges_match_the_database(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    scenario(&t).await;
    // Example 3 again (with `d`, who joined in the scenario), left deadlocked.
    t.create("left", "a").await.expect(201, None);
    for (n, next) in [(1, "b"), (2, "c"), (3, "d")] {
        t.reject("left", n, json!({ "action": "reassign" })).await.expect(201, None);
        t.assign("left", next).await.expect(201, None);
        t.version("left", json!({ "author": next })).await.expect(201, None);
    }
    let deadlocked = t.reject("left", 4, json!({ "action": "reassign" })).await;
    assert_eq!(deadlocked.expect(201, None)["artifact"]["state"], "deadlocked");

    let (lockouts, escalations): (i64, i64) = sqlx::query_as(
        "select (select count(*) from lockouts where cleared_at is null),
                (select count(*) from escalations where resolved_at is null)",
    )
    .fetch_one(&t.api.pool)
    .await
    .unwrap();
    assert_eq!((lockouts, escalations), (7, 1), "module's three and left's four; left's escalation");
    refresh(&t.api).await;
    let (_, page) = scrape(&t.api).await;
    assert_eq!(page.sum("reviewlock_active_lockouts", &[]), lockouts as f64);
    assert_eq!(page.sum("reviewlock_open_escalations", &[]), escalations as f64);

    let max = t.api.pool.options().get_max_connections() as f64;
    assert_eq!(page.sum("reviewlock_db_pool_max", &[]), max);
    let (size, idle) = (page.sum("reviewlock_db_pool_size", &[]), page.sum("reviewlock_db_pool_idle", &[]));
    assert!(size >= 1.0 && size <= max && idle <= size, "size {size}, idle {idle}");
    assert_eq!(page.sum("reviewlock_db_pool_in_use", &[]), size - idle);

    // The user lifts one lockout: one fewer.
    let lift = t.url("/artifacts/left/lockouts/a/lift");
    t.api.post(&lift, &t.user, json!({ "reason": "trusted again" })).await.expect(200, None);
    refresh(&t.api).await;
    let (_, page) = scrape(&t.api).await;
    assert_eq!(page.sum("reviewlock_active_lockouts", &[]), (lockouts - 1) as f64);
}

/// The triggers' arithmetic, straight in SQL: each team's counters equal its counts through
/// inserts, clears, un-clears, deletes, resolutions and rollbacks.
#[sqlx::test]
async fn counters_follow_lockouts_and_escalations(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b", "c"]).await;
    t.create("k", "a").await.expect(201, None);
    t.reject("k", 1, json!({ "action": "reassign" })).await.expect(201, None);
    // A second team, so each team's row is seen to count only its own.
    t.api.team("u", Value::Null).await;
    t.api.agent("u", "a", json!({})).await;
    let artifact = json!({ "key": "k", "title": "k", "author": "a" });
    t.api.post("/v1/teams/u/artifacts", ADMIN, artifact).await.expect(201, None);

    let db = &t.api.pool;
    // Each team's (active_lockouts, open_escalations), checked against its counts.
    let counters = |step: &'static str| async move {
        let rows: Vec<(String, i64, i64, i64, i64)> = sqlx::query_as(
            "select t.id,
                    coalesce(c.active_lockouts, 0),
                    (select count(*) from lockouts l where l.team_id = t.id and l.cleared_at is null),
                    coalesce(c.open_escalations, 0),
                    (select count(*) from escalations e where e.team_id = t.id and e.resolved_at is null)
             from teams t left join team_counters c on c.team_id = t.id order by t.id",
        )
        .fetch_all(db)
        .await
        .unwrap();
        for (team, lockouts, active, escalations, open) in &rows {
            assert_eq!((lockouts, escalations), (active, open), "team {team} after {step}");
        }
        rows.into_iter().map(|r| (r.1, r.3)).collect::<Vec<_>>()
    };
    assert_eq!(counters("the rejection").await, [(1, 0), (0, 0)]);

    let (k, review): (i64, i64) = sqlx::query_as(
        "select a.id, r.id from artifacts a join reviews r on r.artifact_id = a.id where a.team_id = 't'",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let u: i64 =
        sqlx::query_scalar("select id from artifacts where team_id = 'u'").fetch_one(db).await.unwrap();
    let lock = |agent: &str| {
        format!(
            "insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id)
             values ({k}, 't', '{agent}', 1, 1, {review})"
        )
    };
    let steps = [
        (format!("{}, ({k}, 't', 'c', 1, 1, {review})", lock("b")), "two inserts", [(3, 0), (0, 0)]),
        (
            format!(
                "update lockouts set cleared_at = now(), cleared_by = 'lift' where artifact_id = {k} and agent_id = 'b'"
            ),
            "a clear",
            [(2, 0), (0, 0)],
        ),
        (
            format!("update lockouts set lift_reason = 'noted' where artifact_id = {k}"),
            "an update that changes no activity",
            [(2, 0), (0, 0)],
        ),
        (
            format!(
                "update lockouts set cleared_at = null, cleared_by = null where artifact_id = {k} and agent_id = 'b'"
            ),
            "an un-clear",
            [(3, 0), (0, 0)],
        ),
        (
            format!("delete from lockouts where artifact_id = {k} and agent_id = 'c'"),
            "a delete",
            [(2, 0), (0, 0)],
        ),
        (
            format!(
                "update lockouts set cleared_at = now(), cleared_by = 'approval' where artifact_id = {k} and cleared_at is null"
            ),
            "clearing all",
            [(0, 0), (0, 0)],
        ),
        (
            format!("delete from lockouts where artifact_id = {k}"),
            "deleting cleared lockouts",
            [(0, 0), (0, 0)],
        ),
        (
            format!(
                "insert into escalations (artifact_id, team_id, details) values ({k}, 't', '{{}}'), ({u}, 'u', '{{}}')"
            ),
            "two escalations",
            [(0, 1), (0, 1)],
        ),
        (
            format!(
                "update escalations set resolved_at = now(), resolution = '{{}}' where artifact_id = {k}"
            ),
            "a resolution",
            [(0, 0), (0, 1)],
        ),
        ("delete from escalations where team_id = 'u'".to_owned(), "a deleted escalation", [(0, 0), (0, 0)]),
    ];
    for (sql, step, expected) in steps {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(db).await.unwrap_or_else(|e| panic!("{step}: {e}"));
        assert_eq!(counters(step).await, expected, "{step}");
    }

    // A rolled-back transaction changes nothing; one that commits counts at its commit.
    let mut tx = db.begin().await.unwrap();
    let escalate =
        format!("insert into escalations (artifact_id, team_id, details) values ({k}, 't', '{{}}')");
    sqlx::query(sqlx::AssertSqlSafe(escalate)).execute(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(counters("a rollback").await, [(0, 0), (0, 0)]);
    let mut tx = db.begin().await.unwrap();
    let clear =
        format!("update lockouts set cleared_at = now(), cleared_by = 'lift' where artifact_id = {k}");
    for sql in [lock("a"), clear, lock("b")] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut *tx).await.unwrap();
    }
    tx.commit().await.unwrap();
    assert_eq!(counters("a transaction that inserts, clears and inserts").await, [(1, 0), (0, 0)]);
}

#[sqlx::test]
async fn requests_waiting_for_a_connection_are_counted(pool: PgPool) {
    let small = reviewlock::store::Db::new(
        PgPoolOptions::new()
            .max_connections(1)
            .connect_with((*pool.connect_options()).clone())
            .await
            .unwrap(),
    );
    let held = small.acquire().await.unwrap();
    let waiter = tokio::spawn({
        let small = small.clone();
        async move { small.begin().await.map(drop) }
    });
    let started = std::time::Instant::now();
    while small.waiting() == 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "the waiter was never counted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(small.waiting(), 1);
    drop(held);
    waiter.await.unwrap().unwrap();
    assert_eq!(small.waiting(), 0);
    small.close().await;
}
