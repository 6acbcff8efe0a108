//! The lockout index (`app::index`, docs/index.md): checks and unchanged conditional polls
//! answered from memory while the replica knows its index current, and by the database
//! otherwise. Replicas here are apps with pools of their own on the test's database, each with
//! its own listener, as separate processes would be.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reviewlock::config::IndexSettings;
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

use crate::common::{ADMIN, Api, Reply};

const TEAM: &str = "/v1/teams/t";

/// A replica: an app on a pool of its own, with the index set up by `index`.
async fn replica(pool: &PgPool, index: IndexSettings) -> Api {
    let own = PgPoolOptions::new()
        .max_connections(6)
        .connect_with((*pool.connect_options()).clone())
        .await
        .expect("a pool to the test database");
    Api::with_state(own, |s| *s = s.clone().with_index(index))
}

fn on() -> IndexSettings {
    IndexSettings::default()
}

fn off() -> IndexSettings {
    IndexSettings { enabled: false, ..IndexSettings::default() }
}

/// Checks the replica's index answered so far.
fn by_index(api: &Api) -> u64 {
    api.state.index_gauges.answered_by_index.load(Ordering::Relaxed)
}

fn by_database(api: &Api) -> u64 {
    api.state.index_gauges.answered_by_database.load(Ordering::Relaxed)
}

/// Waits until the replica's index is current for team `t` (it never is, within 20 s: fails).
async fn current(api: &Api) {
    for _ in 0..400 {
        if api.state.index.is_current("t") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the index never became current");
}

/// Waits until the replica's index holds team `t` at `seq` or past it.
async fn reached(api: &Api, seq: i64) {
    for _ in 0..400 {
        if api.state.index.is_current("t") && api.state.index.seq("t").is_some_and(|s| s >= seq) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the index never reached seq {seq}");
}

fn seq_of(reply: &Reply) -> i64 {
    reply.headers["reviewlock-seq"].to_str().unwrap().parse().unwrap()
}

async fn check(api: &Api, body: Value) -> Reply {
    api.post(&format!("{TEAM}/checks"), ADMIN, body).await
}

/// Team `t`: authors a, b, c (b also named `plugin:b`), reviewer q (may not author), reviewer r.
async fn setup(api: &Api) {
    api.team("t", Value::Null).await;
    for a in ["a", "b", "c"] {
        api.agent("t", a, json!({ "roles": ["engineer"], "expertise": ["rust"] })).await;
    }
    api.agent("t", "b", json!({ "aliases": ["plugin:b"] })).await;
    api.agent("t", "q", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
    api.agent("t", "r", json!({ "roles": ["lead"], "can_review": true })).await;
}

async fn create(api: &Api, key: &str, author: &str, paths: Value) -> Reply {
    let body = json!({ "key": key, "title": key, "author": author, "paths": paths });
    api.post(&format!("{TEAM}/artifacts"), ADMIN, body).await
}

async fn reject(api: &Api, key: &str, n: i64, reviewer: &str, remedy: Value) -> Reply {
    let body = json!({ "reviewer": reviewer, "verdict": "reject", "grounds": "quality", "reason": "not yet",
                       "remedy": remedy, "evidence": {
                           "counter_evidence": "x", "violated_requirement": "y",
                           "affected_scope": "z", "approval_condition": "w" } });
    api.post(&format!("{TEAM}/artifacts/{key}/versions/{n}/reviews"), ADMIN, body).await
}

#[sqlx::test]
async fn a_check_is_answered_by_the_index_once_current_and_sees_the_replicas_own_writes(pool: PgPool) {
    let api = replica(&pool, on()).await;
    setup(&api).await;
    create(&api, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    let ask = json!({ "agent": "a", "paths": ["src/web/a.rs"] });
    // The first check loads the team; the database answers it.
    let first = check(&api, ask.clone()).await;
    assert_eq!(first.answer(), json!({ "allowed": true, "agent": "a", "denials": [] }));
    current(&api).await;
    let before = by_index(&api);
    let again = check(&api, ask.clone()).await;
    assert_eq!(again.answer(), first.answer());
    assert_eq!(by_index(&api), before + 1, "the index answered");
    // A rejection through this replica: the next check here sees it, whoever answers.
    let rejected = reject(&api, "web", 1, "q", json!({ "action": "reassign" })).await;
    rejected.expect(201, None);
    let seq = seq_of(&rejected);
    let after = check(&api, ask.clone()).await;
    let body = after.expect(200, None);
    assert_eq!(body["allowed"], false);
    assert_eq!(body["denials"][0]["code"], "agent_locked_out");
    assert!(body["seq"].as_i64().unwrap() >= seq, "answered at or past the write: {body}");
    // Once applied, the index answers it too.
    reached(&api, seq).await;
    let before = by_index(&api);
    let from_index = check(&api, ask).await;
    assert_eq!(from_index.answer(), after.answer());
    assert_eq!(by_index(&api), before + 1);
    api.pool.close().await;
}

#[sqlx::test]
async fn min_seq_gives_read_your_writes_across_replicas(pool: PgPool) {
    let (a, b) = (replica(&pool, on()).await, replica(&pool, on()).await);
    setup(&b).await;
    create(&b, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    check(&a, json!({ "agent": "a", "paths": ["src/web/a.rs"] })).await.expect(200, None);
    current(&a).await;
    for round in 0..5 {
        // The coordinator rejects through one replica; the hook checks through the other.
        let key = format!("k{round}");
        create(&b, &key, "c", json!([format!("src/{key}/**")])).await.expect(201, None);
        let rejected = reject(&b, &key, 1, "q", json!({ "action": "reassign" })).await;
        rejected.expect(201, None);
        let seq = seq_of(&rejected);
        let body = json!({ "agent": "c", "paths": [format!("src/{key}/x.rs")], "min_seq": seq });
        let answer = check(&a, body).await;
        let answer = answer.expect(200, None);
        assert_eq!(answer["denials"][0]["code"], "agent_locked_out", "{answer}");
        assert!(answer["seq"].as_i64().unwrap() >= seq);
    }
    assert!(by_index(&a) > 0, "the index answered some of them (the others waited, then asked the database)");
    a.pool.close().await;
    b.pool.close().await;
}

#[sqlx::test]
async fn a_min_seq_not_yet_committed_waits_briefly_then_the_database_answers(pool: PgPool) {
    let api = replica(&pool, IndexSettings { wait: Duration::from_millis(50), ..on() }).await;
    setup(&api).await;
    create(&api, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    reject(&api, "web", 1, "q", json!({ "action": "reassign" })).await.expect(201, None);
    let ask = json!({ "agent": "a", "paths": ["src/web/a.rs"] });
    check(&api, ask.clone()).await.expect(200, None);
    current(&api).await;
    let seq = api.state.index.seq("t").unwrap();
    let (index, database) = (by_index(&api), by_database(&api));
    let future = check(&api, json!({ "agent": "a", "paths": ["src/web/a.rs"], "min_seq": seq + 1000 })).await;
    let body = future.expect(200, None);
    assert_eq!(body["denials"][0]["code"], "agent_locked_out");
    assert_eq!(body["seq"], seq, "the database's answer, at the seq it has");
    assert_eq!((by_index(&api), by_database(&api)), (index, database + 1), "the database answered");
    // A negative one is refused, changing nothing.
    let bad = check(&api, json!({ "agent": "a", "paths": ["src/web/a.rs"], "min_seq": -1 })).await;
    bad.expect(422, Some("invalid_field"));
    api.pool.close().await;
}

#[sqlx::test]
async fn a_lost_listener_sends_checks_to_the_database_until_it_listens_and_has_caught_up(pool: PgPool) {
    let a = replica(&pool, on()).await;
    let b = replica(&pool, off()).await;
    setup(&a).await;
    create(&a, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    let ask = json!({ "agent": "a", "paths": ["src/web/a.rs"] });
    check(&a, ask.clone()).await.expect(200, None);
    current(&a).await;
    // Only `a` listens (`b` has no index and no long polls).
    let killed: Vec<bool> = sqlx::query_scalar(
        "select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query like 'LISTEN%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(killed, [true], "one listening connection");
    // Not current until it listens again; meanwhile a write through the other replica.
    let rejected = reject(&b, "web", 1, "q", json!({ "action": "reassign" })).await;
    rejected.expect(201, None);
    let seq = seq_of(&rejected);
    // Whoever answers, the answer is the database's or one at or past the write.
    let during = check(&a, json!({ "agent": "a", "paths": ["src/web/a.rs"], "min_seq": seq })).await;
    assert_eq!(during.expect(200, None)["denials"][0]["code"], "agent_locked_out");
    reached(&a, seq).await;
    let before = by_index(&a);
    let after = check(&a, ask).await;
    let body = after.expect(200, None);
    assert_eq!(body["denials"][0]["code"], "agent_locked_out", "{body}");
    assert_eq!(by_index(&a), before + 1, "the index answers again, with what it missed");
    a.pool.close().await;
    b.pool.close().await;
}

#[sqlx::test]
async fn idle_teams_are_dropped_and_read_again_and_a_team_over_the_budget_is_answered_by_the_database(
    pool: PgPool,
) {
    let api = replica(&pool, on()).await;
    setup(&api).await;
    create(&api, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    reject(&api, "web", 1, "q", json!({ "action": "reassign" })).await.expect(201, None);
    let ask = json!({ "agent": "a", "paths": ["src/web/a.rs"] });
    let expected = check(&api, ask.clone()).await.answer();
    current(&api).await;
    let gauges = &api.state.index_gauges;
    assert_eq!(gauges.teams.load(Ordering::Relaxed), 1);
    assert!(gauges.entries.load(Ordering::Relaxed) >= 6, "agents, the artifact, the lockout");
    api.state.index.sweep_now(Duration::ZERO);
    assert_eq!(api.state.index.seq("t"), None, "dropped");
    assert_eq!((gauges.teams.load(Ordering::Relaxed), gauges.entries.load(Ordering::Relaxed)), (0, 0));
    let database = by_database(&api);
    assert_eq!(check(&api, ask.clone()).await.answer(), expected);
    assert_eq!(by_database(&api), database + 1, "the database answers while it loads again");
    current(&api).await;
    let index = by_index(&api);
    assert_eq!(check(&api, ask.clone()).await.answer(), expected);
    assert_eq!(by_index(&api), index + 1, "read again, the index answers");
    api.pool.close().await;

    // A budget smaller than the team: the database answers every check, correctly.
    let small = replica(&pool, IndexSettings { budget: 3, ..on() }).await;
    for _ in 0..5 {
        assert_eq!(check(&small, ask.clone()).await.answer(), expected);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(by_index(&small), 0);
    assert_eq!(small.state.index_gauges.entries.load(Ordering::Relaxed), 0);
    small.pool.close().await;
}

#[sqlx::test]
async fn a_304_from_the_index_never_hides_a_change(pool: PgPool) {
    let (a, b) = (replica(&pool, on()).await, replica(&pool, off()).await);
    setup(&a).await;
    create(&a, "web", "a", json!(["src/web/**"])).await.expect(201, None);
    check(&a, json!({ "agent": "a", "paths": ["x"] })).await.expect(200, None);
    current(&a).await;
    let path = format!("{TEAM}/artifacts/web");
    let list = format!("{TEAM}/artifacts");
    let etag = |r: &Reply| r.headers["etag"].to_str().unwrap().to_owned();
    let conditional = async |path: &str, etag: &str| {
        a.send_with(axum::http::Method::GET, path, Some(ADMIN), None, &[("if-none-match", etag)]).await
    };
    let (mut one, mut all) = (etag(&a.get(&path, ADMIN).await), etag(&a.get(&list, ADMIN).await));
    conditional(&path, &one).await.expect(304, None);
    conditional(&list, &all).await.expect(304, None);
    for round in 0..6 {
        // A change through this replica, or through the other one (seen once notified).
        let writer = if round % 2 == 0 { &a } else { &b };
        let reply = match round % 3 {
            0 => reject(writer, "web", 1 + round / 3, "q", json!({ "action": "reassign" })).await,
            1 => {
                writer
                    .post(
                        &format!("{path}/assignment"),
                        ADMIN,
                        json!({ "agent": if round < 3 { "b" } else { "c" } }),
                    )
                    .await
            }
            _ => {
                let author = if round < 3 { "b" } else { "c" };
                writer.post(&format!("{path}/versions"), ADMIN, json!({ "author": author })).await
            }
        };
        reply.expect(201, None);
        let seq = seq_of(&reply);
        if round % 2 == 1 {
            reached(&a, seq).await;
        }
        let changed = conditional(&path, &one).await;
        assert_eq!(changed.status.as_u16(), 200, "round {round}: a change is never 304");
        assert_ne!(etag(&changed), one);
        let listed = conditional(&list, &all).await;
        assert_eq!(listed.status.as_u16(), 200, "round {round}: the list changed");
        (one, all) = (etag(&changed), etag(&listed));
        // Unchanged since: 304, from the index once current.
        reached(&a, seq).await;
        conditional(&path, &one).await.expect(304, None);
        conditional(&list, &all).await.expect(304, None);
    }
    a.pool.close().await;
    b.pool.close().await;
}

/// A small deterministic generator (xorshift), so a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const KEYS: [&str; 8] = ["web", "api", "svc/auth.rs", "docs", "pr-42", "lib.core", "cfg", "ui"];
const AGENTS: [&str; 6] = ["a", "b", "c", "d", "q", "r"];
const FILES: [&str; 13] = [
    "src/web",
    "ui",
    "src/web/deep/x.rs",
    "src/web/a.rs",
    "src/api/v1/h.rs",
    "svc/auth.rs",
    "docs/readme.md",
    "docs/guide/x.md",
    "src/shared/mod.rs",
    "README.md",
    "cfg/app.toml",
    "ui/index.html",
    "./src//web/../api/v1/h.rs",
];
const GLOBS: [&[&str]; 9] = [
    &["src/web/*.rs", "ui"],
    &["src/web/**/x.rs", "src/{api,web}/v1/*.rs"],
    &["src/web/**"],
    &["src/api/**", "src/shared/*.rs"],
    &["svc/auth.rs"],
    &["docs/*.md"],
    &[],
    &["**/*.toml"],
    &["ui/**", "docs/**"],
];

/// One random write through `api`, refused or not (a refusal changes nothing); biased towards
/// writes the artifact's state accepts, so that every state is reached.
async fn random_write(api: &Api, user: &str, rng: &mut Rng) {
    let key = *rng.pick(&KEYS);
    let agent = *rng.pick(&AGENTS);
    let artifact = format!("{TEAM}/artifacts/{key}");
    let status = api.get(&artifact, ADMIN).await.body;
    let n = status["current_version"]["number"].as_i64().unwrap_or(1);
    let eligible: Vec<String> = status["eligible_agents"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default();
    let assignee = status["assignment"]["agent"].as_str().map(str::to_owned);
    let state = status["state"].as_str().unwrap_or("none");
    let roll = rng.below(40);
    match (state, roll) {
        (_, 0) => {
            let profile = *rng.pick(&["standard", "waza"]);
            api.put(TEAM, ADMIN, json!({ "policy": { "profile": profile } })).await;
        }
        (_, 1..=3) => {
            let body = match rng.below(4) {
                0 => json!({ "active": rng.below(4) != 0 }),
                1 => json!({ "can_author": rng.below(3) != 0 }),
                2 => json!({ "aliases": [format!("alias-{}", rng.below(3))] }),
                _ => json!({ "expertise": if rng.below(2) == 0 { json!(["rust"]) } else { json!([]) } }),
            };
            api.put(&format!("{TEAM}/agents/{}", rng.pick(&["a", "b", "c", "d"])), ADMIN, body).await;
        }
        (_, 4) => {
            api.post(
                &format!("{artifact}/lockouts/{agent}/lift"),
                user,
                json!({ "reason": "misattributed" }),
            )
            .await;
        }
        ("none", _) => {
            let paths = *rng.pick(&GLOBS);
            create(api, key, agent, json!(paths)).await;
        }
        ("in_review", _) if rng.below(4) == 0 => {
            let author = status["current_version"]["author"].as_str().unwrap_or(agent);
            api.post(&format!("{artifact}/versions"), ADMIN, json!({ "author": author })).await;
        }
        ("in_review", _) => {
            let reviewer = *rng.pick(&["q", "r"]);
            if rng.below(3) == 0 {
                let body = json!({ "reviewer": reviewer, "verdict": "approve" });
                api.post(&format!("{artifact}/versions/{n}/reviews"), ADMIN, body).await;
            } else {
                let remedy = match rng.below(4) {
                    0 => json!({ "action": "escalate", "expertise": ["rust"] }),
                    _ => json!({ "action": "reassign" }),
                };
                reject(api, key, n, reviewer, remedy).await;
            }
        }
        ("changes_requested", _) => {
            let pick = if eligible.is_empty() || rng.below(4) == 0 {
                agent.to_owned()
            } else {
                rng.pick(&eligible).clone()
            };
            api.post(&format!("{artifact}/assignment"), ADMIN, json!({ "agent": pick })).await;
        }
        ("in_revision", _) if rng.below(5) == 0 => {
            api.delete(&format!("{artifact}/assignment"), ADMIN).await;
        }
        ("in_revision", _) => {
            let author = if rng.below(5) == 0 { agent.to_owned() } else { assignee.unwrap_or_default() };
            api.post(&format!("{artifact}/versions"), ADMIN, json!({ "author": author })).await;
        }
        ("approved", _) => {
            api.post(&format!("{artifact}/versions"), ADMIN, json!({ "author": agent })).await;
        }
        ("deadlocked", _) => {
            let body = if rng.below(10) != 0 {
                json!({ "action": "assign", "agent": agent, "reason": "fresh eyes" })
            } else {
                json!({ "action": "abandon", "reason": "dropped" })
            };
            api.post(&format!("{artifact}/resolution"), user, body).await;
        }
        _ => {}
    }
}

fn random_check(rng: &mut Rng) -> Value {
    let mut body = json!({});
    match rng.below(6) {
        0 => {}
        1 => body["alias"] = json!(rng.pick(&["plugin:b", "alias-0", "alias-1", "alias-2", "nobody", "a"])),
        _ => body["agent"] = json!(rng.pick(&["a", "b", "c", "d", "q", "r", "zz"])),
    }
    let ask = rng.below(3);
    if ask != 1 {
        body["artifact"] = json!(rng.pick(&[KEYS.as_slice(), &["missing"]].concat()));
    }
    if ask != 0 {
        let n = 1 + rng.below(3);
        body["paths"] = json!((0..n).map(|_| *rng.pick(&FILES)).collect::<Vec<_>>());
    }
    body
}

/// The differential test: thousands of random checks, each asked of the database (a replica
/// without index) and then of the index with `min_seq` at the database's seq, while another
/// replica writes; every pair answered at the same seq must be equal.
#[sqlx::test]
async fn the_index_answers_every_check_as_the_database_does_at_the_same_seq(pool: PgPool) {
    let index = replica(&pool, on()).await;
    let database = replica(&pool, off()).await;
    let writer = Arc::new(replica(&pool, on()).await);
    setup(&writer).await;
    writer.agent("t", "d", json!({ "roles": ["engineer"] })).await;
    let user = writer.token("t", "user").await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..200 {
        random_write(&writer, &user, &mut rng).await;
    }
    check(&index, json!({ "agent": "a", "paths": ["x"] })).await.expect(200, None);
    current(&index).await;

    let done = Arc::new(AtomicBool::new(false));
    // Four writers, each a task of its own, as four coordinators on the other replica.
    let writes: Vec<_> = (0..4u64)
        .map(|w| {
            let (writer, done, user) = (writer.clone(), done.clone(), user.clone());
            tokio::spawn(async move {
                let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ (w + 1).wrapping_mul(0x9e37_79b9));
                let mut n = 0;
                while !done.load(Ordering::Relaxed) {
                    random_write(&writer, &user, &mut rng).await;
                    n += 1;
                }
                n
            })
        })
        .collect();
    const CHECKS: usize = 3000;
    let (mut compared, mut from_index, mut differences) = (0, 0, Vec::new());
    for _ in 0..CHECKS {
        let body = random_check(&mut rng);
        let expected = check(&database, body.clone()).await;
        let expected = expected.expect(200, None);
        let seq = expected["seq"].as_i64().unwrap();
        let mut asked = body.clone();
        asked["min_seq"] = json!(seq);
        let before = by_index(&index);
        let answer = check(&index, asked).await;
        let answer = answer.expect(200, None);
        assert!(answer["seq"].as_i64().unwrap() >= seq, "at or past min_seq: {answer}");
        if answer["seq"] == expected["seq"] {
            compared += 1;
            if by_index(&index) > before {
                from_index += 1;
            }
            if answer != expected {
                differences.push(format!("{body}\n  database: {expected}\n  index:    {answer}"));
            }
        }
    }
    done.store(true, Ordering::Relaxed);
    let mut writes_done = 0;
    for w in writes {
        writes_done += w.await.unwrap();
    }
    let writes = writes_done;
    let states: Vec<String> =
        sqlx::query_scalar("select state from artifacts order by state").fetch_all(&pool).await.unwrap();
    let kinds: Vec<(String, i64)> =
        sqlx::query_as("select type, count(*) from events group by type order by type")
            .fetch_all(&pool)
            .await
            .unwrap();
    eprintln!(
        "differential: {CHECKS} checks under {writes} concurrent writes: {compared} answered at the same seq, \
         {from_index} of them by the index; artifact states at the end: {states:?}; events: {kinds:?}"
    );
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
    assert!(from_index >= 1000, "too few checks compared from the index: {from_index} of {compared}");
    index.pool.close().await;
    database.pool.close().await;
    writer.pool.close().await;
}
