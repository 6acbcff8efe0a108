//! Reliability: real `reviewlock serve` processes on one test database, driven over
//! HTTP by scripted coordinators, then checked against the database itself.
//!
//! - [`three_replicas_keep_the_rules`]: three replicas, many coordinators doing legal and illegal
//!   operations at random; an invariant checker replays the event log and reads the tables.
//! - [`a_killed_server_loses_no_acknowledged_write`]: `kill -9` mid-load, restart, nothing lost,
//!   idempotency keys still replay.
//! - [`sigterm_drains_an_in_flight_write`]: SIGTERM while a write waits on a row lock: new
//!   connections are turned away, the write completes, the process exits by itself.
//!
//! Run with `--nocapture` to see the figures each test prints.

mod process;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::Method;
use process::{Client, Reply, Serve, Server, database_url};
use serde_json::{Value, json};
use sqlx::PgPool;

const ADMIN: &str = "reliability-admin-token";
const TEAM: &str = "t";
const ARTIFACTS: [&str; 4] = ["m0", "m1", "m2", "m3"];
/// Authors; `a1` and `a3` hold the `db` expertise, `a5` may also review.
const AUTHORS: [&str; 6] = ["a0", "a1", "a2", "a3", "a4", "a5"];
const REVIEWERS: [&str; 3] = ["r0", "r1", "a5"];
const EVERYONE: [&str; 8] = ["a0", "a1", "a2", "a3", "a4", "a5", "r0", "r1"];

// ---------------------------------------------------------------------------------------------
// Processes

/// Starts a server on the test database and waits until it is ready.
async fn start(database: &str, extra_env: &[(&str, &str)]) -> Server {
    Serve::new(database, ADMIN)
        .envs(&[
            ("REVIEWLOCK_RATE_LIMIT", "0"),
            // Three replicas and other tests share Postgres' 100 connections.
            ("REVIEWLOCK_DB_MAX_CONNECTIONS", "8"),
            ("REVIEWLOCK_LOG_FORMAT", "json"),
            ("RUST_LOG", "warn"),
        ])
        .envs(extra_env)
        .start()
        .await
}

// ---------------------------------------------------------------------------------------------
// Scripted coordinators

/// xorshift64: a seeded, reproducible stream, enough for picking operations.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with `percent` % probability.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What a replay of an acknowledged request needs.
#[derive(Debug, Clone)]
struct Sent {
    method: Method,
    path: String,
    token: String,
    body: Option<Value>,
    key: String,
}

/// An acknowledged (2xx) write.
#[derive(Debug, Clone)]
struct Ack {
    /// The event type it must have appended.
    event: String,
    artifact: Option<String>,
    body: Value,
    status: u16,
    bytes: Vec<u8>,
    /// Set when it was sent with an `Idempotency-Key`.
    sent: Option<Sent>,
}

#[derive(Default)]
struct Ledger {
    acks: Vec<Ack>,
    reads: usize,
    writes: usize,
    /// Of `acks`, the setup's writes.
    setup: usize,
    /// Writes without an answer (the server died or never answered): they may or may not have
    /// committed.
    unanswered: usize,
    refusals: BTreeMap<String, usize>,
}

struct Ctx {
    /// One per replica.
    replicas: Vec<Client>,
    coord: String,
    user: String,
    /// Send an `Idempotency-Key` with about half the writes.
    keys: bool,
    ledger: Mutex<Ledger>,
}

impl Ctx {
    /// Sends a write to a random replica and records its outcome. `Err` when unanswered.
    #[allow(clippy::too_many_arguments)]
    async fn write(
        &self,
        rng: &mut Rng,
        method: Method,
        path: String,
        token: &str,
        body: Option<Value>,
        event: &str,
        artifact: Option<&str>,
    ) -> Result<Reply, String> {
        let mut request = rng.pick(&self.replicas).request(method.clone(), &path).bearer(token);
        let key = (self.keys && rng.chance(50)).then(|| format!("k-{:016x}", rng.next()));
        if let Some(key) = &key {
            request = request.header("idempotency-key", key);
        }
        let answer = request.json(body.clone()).send().await;
        let mut ledger = self.ledger.lock().unwrap();
        ledger.writes += 1;
        match &answer {
            Ok(r) if (200..300).contains(&r.status) => {
                let event = match event {
                    "review" if r.body["review"]["verdict"] == "approve" => "review.approved",
                    "review" => "review.rejected",
                    other => other,
                };
                ledger.acks.push(Ack {
                    event: event.to_owned(),
                    artifact: artifact.map(str::to_owned),
                    body: r.body.clone(),
                    status: r.status,
                    bytes: r.bytes.clone(),
                    sent: key.map(|key| Sent { method, path, token: token.to_owned(), body, key }),
                });
            }
            Ok(r) => {
                let code = r.body["code"].as_str().unwrap_or("-");
                *ledger.refusals.entry(format!("{} {code}", r.status)).or_default() += 1;
            }
            Err(_) => ledger.unanswered += 1,
        }
        answer
    }

    async fn read(&self, rng: &mut Rng, path: &str) -> Result<Reply, String> {
        let answer = rng.pick(&self.replicas).get(path).bearer(&self.coord).send().await;
        self.ledger.lock().unwrap().reads += 1;
        answer
    }
}

/// The team: policy `required_approvals: 2`, authors, reviewers, a coordinator and a user token,
/// and the artifacts, each created by a different author. Every write is recorded as an ack.
async fn setup(client: Client) -> Ctx {
    let mut acks = Vec::new();
    let mut call =
        async |method: Method, path: &str, token: &str, body: Value, event: &str, artifact: Option<&str>| {
            let r = client.request(method, path).bearer(token).json(body).must().await;
            acks.push(Ack {
                event: event.to_owned(),
                artifact: artifact.map(str::to_owned),
                body: r.body.clone(),
                status: r.status,
                bytes: r.bytes.clone(),
                sent: None,
            });
            r.body
        };
    let team = format!("/v1/teams/{TEAM}");
    let policy = json!({ "policy": { "profile": "standard", "required_approvals": 2 } });
    call(Method::PUT, &team, ADMIN, policy, "team.created", None).await;
    let mut tokens = Vec::new();
    for scope in ["coordinator", "user"] {
        let body = json!({ "name": scope, "scope": scope });
        let created = call(Method::POST, &format!("{team}/tokens"), ADMIN, body, "token.created", None).await;
        tokens.push(created["token"].as_str().unwrap().to_owned());
    }
    let (coord, user) = (tokens[0].clone(), tokens[1].clone());
    for agent in AUTHORS {
        let expertise: &[&str] = if agent == "a1" || agent == "a3" { &["db"] } else { &[] };
        let body = json!({ "roles": ["engineer"], "expertise": expertise, "can_review": agent == "a5" });
        call(Method::PUT, &format!("{team}/agents/{agent}"), &coord, body, "agent.created", None).await;
    }
    for agent in ["r0", "r1"] {
        let body = json!({ "roles": ["tester"], "can_review": true, "can_author": false });
        call(Method::PUT, &format!("{team}/agents/{agent}"), &coord, body, "agent.created", None).await;
    }
    for (i, key) in ARTIFACTS.iter().enumerate() {
        let body = json!({ "key": key, "title": key, "author": AUTHORS[i], "ref": "r1" });
        call(Method::POST, &format!("{team}/artifacts"), &coord, body, "artifact.created", Some(key)).await;
    }
    let ledger = Ledger { setup: acks.len(), acks, ..Ledger::default() };
    Ctx { replicas: vec![client], coord, user, keys: false, ledger: Mutex::new(ledger) }
}

/// One coordinator: reads an artifact's status, then mostly does what the state allows (75 %),
/// otherwise anything at all. Stops at `until`, or at the first unanswered request when
/// `stop_on_error`.
async fn coordinator(ctx: Arc<Ctx>, seed: u64, until: Instant, stop_on_error: bool) {
    let mut rng = Rng::new(seed);
    let team = format!("/v1/teams/{TEAM}");
    while Instant::now() < until {
        let key = *rng.pick(&ARTIFACTS);
        let art = format!("{team}/artifacts/{key}");
        let status = match ctx.read(&mut rng, &art).await {
            Ok(r) if r.status == 200 => r.body,
            Ok(_) => continue,
            Err(_) if stop_on_error => return,
            Err(_) => continue,
        };
        let state = status["state"].as_str().unwrap_or_default().to_owned();
        let current = status["current_version"]["number"].as_i64().unwrap_or(1);
        let assignee = status["assignment"]["agent"].as_str().map(str::to_owned);
        let names = |v: &Value| -> Vec<String> {
            v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_owned)).collect()
        };
        let eligible = names(&status["eligible_agents"]);
        let locked: Vec<String> = status["lockouts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l["agent"].as_str().map(str::to_owned))
            .collect();
        let legal = rng.chance(75);
        // 0 version, 1 review, 2 assign, 3 release, 4 resolve, 5 lift
        let action = if legal {
            match state.as_str() {
                "in_review" => 1,
                "changes_requested" if rng.chance(15) => 5,
                "changes_requested" => 2,
                "in_revision" if rng.chance(10) => 3,
                "in_revision" | "approved" => 0,
                "deadlocked" if rng.chance(30) => 5,
                "deadlocked" => 4,
                _ => rng.below(6),
            }
        } else {
            rng.below(6)
        };
        let random_author = |rng: &mut Rng| -> String {
            if rng.chance(10) { "r0".to_owned() } else { rng.pick(&AUTHORS).to_string() }
        };
        let result = match action {
            0 => {
                let author = match (&assignee, legal) {
                    (Some(a), true) => a.clone(),
                    _ => random_author(&mut rng),
                };
                let mut body = json!({ "author": author, "ref": format!("r{}", rng.below(1000)) });
                if rng.chance(25) {
                    body["contributors"] = json!([{ "agent": random_author(&mut rng), "role": "co_author" }]);
                }
                ctx.write(
                    &mut rng,
                    Method::POST,
                    format!("{art}/versions"),
                    &ctx.coord,
                    Some(body),
                    "version.submitted",
                    Some(key),
                )
                .await
            }
            1 => {
                let number = if legal { current } else { current + rng.below(3) as i64 - 1 };
                let reviewer =
                    if legal { rng.pick(&REVIEWERS).to_string() } else { rng.pick(&EVERYONE).to_string() };
                // Rejections lean ahead so that cycles run long enough to deadlock now and then.
                let body = if rng.chance(40) {
                    json!({ "reviewer": reviewer, "verdict": "approve" })
                } else {
                    let mut remedy = if rng.chance(65) {
                        json!({ "action": "reassign" })
                    } else {
                        json!({ "action": "escalate", "expertise": ["db"] })
                    };
                    if rng.chance(30) {
                        remedy["agent"] = json!(random_author(&mut rng));
                    }
                    json!({ "reviewer": reviewer, "verdict": "reject", "grounds": "quality",
                            "reason": "not yet", "remedy": remedy })
                };
                let path = format!("{art}/versions/{number}/reviews");
                ctx.write(&mut rng, Method::POST, path, &ctx.coord, Some(body), "review", Some(key)).await
            }
            2 => {
                let agent = if legal && !eligible.is_empty() {
                    rng.pick(&eligible).clone()
                } else {
                    random_author(&mut rng)
                };
                let body = json!({ "agent": agent, "note": "go" });
                ctx.write(
                    &mut rng,
                    Method::POST,
                    format!("{art}/assignment"),
                    &ctx.coord,
                    Some(body),
                    "assignment.created",
                    Some(key),
                )
                .await
            }
            3 => {
                ctx.write(
                    &mut rng,
                    Method::DELETE,
                    format!("{art}/assignment"),
                    &ctx.coord,
                    None,
                    "assignment.released",
                    Some(key),
                )
                .await
            }
            4 => {
                let token = if rng.chance(10) { ctx.coord.clone() } else { ctx.user.clone() };
                let body = if rng.chance(3) {
                    json!({ "action": "abandon", "reason": "enough" })
                } else {
                    let free: Vec<&str> =
                        AUTHORS.iter().copied().filter(|a| !locked.iter().any(|l| l == a)).collect();
                    let agent = if legal && !free.is_empty() {
                        rng.pick(&free).to_string()
                    } else {
                        random_author(&mut rng)
                    };
                    json!({ "action": "assign", "agent": agent, "reason": "fresh eyes" })
                };
                ctx.write(
                    &mut rng,
                    Method::POST,
                    format!("{art}/resolution"),
                    &token,
                    Some(body),
                    "escalation.resolved",
                    Some(key),
                )
                .await
            }
            _ => {
                let agent = if legal && !locked.is_empty() {
                    rng.pick(&locked).clone()
                } else {
                    random_author(&mut rng)
                };
                let token = if rng.chance(10) { ctx.coord.clone() } else { ctx.user.clone() };
                let body = json!({ "reason": "trusted again" });
                let path = format!("{art}/lockouts/{agent}/lift");
                ctx.write(&mut rng, Method::POST, path, &token, Some(body), "lockout.lifted", Some(key)).await
            }
        };
        if result.is_err() && stop_on_error {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The invariant checker

/// An event as the checker reads it: seq, artifact, type, actor, data.
type EventRow = (i64, Option<String>, String, Option<String>, Value);

/// One artifact as its event log says it must be.
#[derive(Debug, Default)]
struct Model {
    state: String,
    cycle: i64,
    current: i64,
    authors: BTreeMap<i64, String>,
    credits: BTreeMap<i64, BTreeSet<String>>,
    approvals: BTreeMap<i64, i64>,
    lockouts: BTreeSet<String>,
    assignee: Option<String>,
    escalated: bool,
}

fn credits_of(data: &Value) -> (String, BTreeSet<String>) {
    let author = data["author"].as_str().unwrap_or_default().to_owned();
    let mut credits = BTreeSet::from([author.clone()]);
    for c in data["contributors"].as_array().into_iter().flatten() {
        credits.insert(c["agent"].as_str().unwrap_or_default().to_owned());
    }
    (author, credits)
}

async fn scalar(pool: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// Every rule checked against the database after a run; returns the violations found.
/// `unanswered` writes may or may not have committed, so up to that many events may exist
/// beyond the acknowledged writes.
async fn check(pool: &PgPool, acks: &[Ack], unanswered: usize) -> Vec<String> {
    let mut violations = Vec::new();
    let required: i64 = sqlx::query_scalar("select required_approvals::bigint from teams where id = $1")
        .bind(TEAM)
        .fetch_one(pool)
        .await
        .unwrap();

    // R12: seqs are 1..=last_event_seq, each once.
    let events: Vec<EventRow> =
        sqlx::query_as("select seq, artifact, type, actor, data from events where team_id = $1 order by seq")
            .bind(TEAM)
            .fetch_all(pool)
            .await
            .unwrap();
    let last: i64 = sqlx::query_scalar("select last_event_seq from team_seqs where team_id = $1")
        .bind(TEAM)
        .fetch_one(pool)
        .await
        .unwrap();
    let seqs: Vec<i64> = events.iter().map(|e| e.0).collect();
    if seqs != (1..=last).collect::<Vec<_>>() {
        violations.push(format!("event seqs are not 1..={last} each once"));
    }

    // Every acknowledged write appended its event; nothing else did (but unanswered writes).
    let mut expected: BTreeMap<(String, Option<String>), usize> = BTreeMap::new();
    for a in acks {
        *expected.entry((a.event.clone(), a.artifact.clone())).or_default() += 1;
    }
    let mut found: BTreeMap<(String, Option<String>), usize> = BTreeMap::new();
    for e in &events {
        *found.entry((e.2.clone(), e.1.clone())).or_default() += 1;
    }
    for (what, n) in &expected {
        let got = found.get(what).copied().unwrap_or(0);
        if got < *n {
            violations.push(format!("{n} acknowledged {what:?} writes but {got} events"));
        }
    }
    let surplus = events.len() as i64 - acks.len() as i64;
    if surplus < 0 || surplus > unanswered as i64 {
        violations.push(format!(
            "{} events for {} acknowledged writes ({unanswered} unanswered)",
            events.len(),
            acks.len()
        ));
    }

    // The acknowledged versions and reviews are the rows.
    for a in acks {
        match a.event.as_str() {
            "version.submitted" => {
                let row: Option<(String, i32)> = sqlx::query_as(
                    "select v.author, v.cycle from versions v join artifacts x on x.id = v.artifact_id
                     where x.team_id = $1 and x.key = $2 and v.number = $3",
                )
                .bind(TEAM)
                .bind(a.artifact.as_deref())
                .bind(a.body["number"].as_i64().unwrap() as i32)
                .fetch_optional(pool)
                .await
                .unwrap();
                let want =
                    (a.body["author"].as_str().unwrap().to_owned(), a.body["cycle"].as_i64().unwrap() as i32);
                if row.as_ref() != Some(&want) {
                    violations.push(format!(
                        "acknowledged version {:?}/{} is {row:?}",
                        a.artifact, a.body["number"]
                    ));
                }
            }
            "review.approved" | "review.rejected" => {
                let review = &a.body["review"];
                let row: Option<(String, String, i32)> =
                    sqlx::query_as("select reviewer, verdict, number from reviews where id = $1")
                        .bind(review["id"].as_i64().unwrap())
                        .fetch_optional(pool)
                        .await
                        .unwrap();
                let want = (
                    review["reviewer"].as_str().unwrap().to_owned(),
                    review["verdict"].as_str().unwrap().to_owned(),
                    review["version"].as_i64().unwrap() as i32,
                );
                if row.as_ref() != Some(&want) {
                    violations.push(format!("acknowledged review {} is {row:?}", review["id"]));
                }
            }
            _ => {}
        }
    }

    // The event log replayed, in commit order (a team's seqs are taken in commit order).
    let mut models: BTreeMap<String, Model> = BTreeMap::new();
    for (seq, artifact, kind, actor, data) in &events {
        let Some(key) = artifact else { continue };
        let m = models.entry(key.clone()).or_default();
        let mut bad = |what: String| violations.push(format!("seq {seq} {kind} {key}: {what}"));
        let actor = actor.clone().unwrap_or_default();
        match kind.as_str() {
            "artifact.created" => {
                let (author, credits) = credits_of(data);
                *m = Model { state: "in_review".into(), cycle: 1, current: 1, ..Model::default() };
                m.authors.insert(1, author);
                m.credits.insert(1, credits);
            }
            "version.submitted" => {
                let number = data["version"].as_i64().unwrap();
                let cycle = data["cycle"].as_i64().unwrap();
                let (author, credits) = credits_of(data);
                // R6: nobody credited is locked out at this point of the log.
                for c in &credits {
                    if m.lockouts.contains(c) {
                        bad(format!("v{number} credits {c}, locked out"));
                    }
                }
                if number != m.current + 1 {
                    bad(format!("v{number} after v{}", m.current));
                }
                let allowed = match m.state.as_str() {
                    "in_revision" => m.assignee.as_deref() == Some(&author) && cycle == m.cycle,
                    "in_review" => m.authors.get(&m.current) == Some(&author) && cycle == m.cycle,
                    "approved" => cycle == m.cycle + 1,
                    _ => false,
                };
                if !allowed {
                    bad(format!(
                        "v{number} by {author} (cycle {cycle}) in state {} (cycle {})",
                        m.state, m.cycle
                    ));
                }
                m.current = number;
                m.cycle = cycle;
                m.authors.insert(number, author);
                m.credits.insert(number, credits);
                m.assignee = None;
                m.state = "in_review".into();
            }
            "review.approved" | "review.rejected" => {
                let number = data["version"].as_i64().unwrap();
                if number != m.current || m.state != "in_review" {
                    bad(format!("a verdict on v{number} while v{} is {}", m.current, m.state));
                }
                // R1: nobody judges a version they are credited on.
                if m.credits.get(&number).is_some_and(|c| c.contains(&actor)) {
                    bad(format!("{actor} judged v{number}, credited on it"));
                }
                if kind == "review.approved" {
                    let approvals = m.approvals.entry(number).or_default();
                    *approvals += 1;
                    if *approvals >= required {
                        m.state = "approved".into();
                        m.lockouts.clear();
                    }
                } else {
                    let credits = m.credits.get(&number).cloned().unwrap_or_default();
                    for l in data["lockouts"].as_array().into_iter().flatten() {
                        let agent = l.as_str().unwrap_or_default().to_owned();
                        if !credits.contains(&agent) {
                            bad(format!("{agent} locked out, not credited on v{number}"));
                        }
                        m.lockouts.insert(agent);
                    }
                    if !credits.is_subset(&m.lockouts) {
                        bad(format!("a rejection of v{number} left someone credited free"));
                    }
                    if data["deadlocked"] == true {
                        m.state = "deadlocked".into();
                        m.escalated = true;
                    } else {
                        m.state = "changes_requested".into();
                    }
                }
                if data["state"] != m.state.as_str() {
                    bad(format!("the event says {} where the history says {}", data["state"], m.state));
                }
            }
            "assignment.created" => {
                if m.state != "changes_requested" || m.lockouts.contains(&actor) || m.assignee.is_some() {
                    bad(format!("assigned {actor} in {} with lockouts {:?}", m.state, m.lockouts));
                }
                m.assignee = Some(actor);
                m.state = "in_revision".into();
            }
            "assignment.released" => {
                if m.state != "in_revision" || m.assignee.as_deref() != Some(&actor) {
                    bad(format!("released {actor} in {}", m.state));
                }
                m.assignee = None;
                m.state = "changes_requested".into();
            }
            "escalation.resolved" => {
                if m.state != "deadlocked" || !m.escalated {
                    bad(format!("resolved in {}", m.state));
                }
                m.escalated = false;
                if data["action"] == "abandon" {
                    m.state = "abandoned".into();
                } else {
                    if m.lockouts.contains(&actor) {
                        bad(format!("the user assigned {actor}, locked out"));
                    }
                    m.assignee = Some(actor);
                    m.state = "in_revision".into();
                }
            }
            "lockout.lifted" => {
                if !m.lockouts.remove(&actor) || m.state == "abandoned" {
                    bad(format!("lifted {actor}, not locked out (or abandoned)"));
                }
            }
            other => bad(format!("unexpected event type {other}")),
        }
    }

    // Each artifact is what its history says.
    type Row = (String, String, i32, i32, Vec<String>, Option<String>, bool);
    let rows: Vec<Row> = sqlx::query_as(
        "select a.key, a.state, a.cycle, a.current_version,
                array(select l.agent_id from lockouts l where l.artifact_id = a.id and l.cleared_at is null
                      order by l.agent_id),
                (select s.agent_id from assignments s where s.artifact_id = a.id and s.ended_at is null limit 1),
                exists (select 1 from escalations e where e.artifact_id = a.id and e.resolved_at is null)
         from artifacts a where a.team_id = $1",
    )
    .bind(TEAM)
    .fetch_all(pool)
    .await
    .unwrap();
    for (key, state, cycle, current, lockouts, assignee, escalated) in rows {
        let Some(m) = models.get(&key) else {
            violations.push(format!("{key} has no artifact.created event"));
            continue;
        };
        let lockouts: BTreeSet<String> = lockouts.into_iter().collect();
        let db = (state.as_str(), cycle as i64, current as i64, &lockouts, assignee.as_deref(), escalated);
        let log = (m.state.as_str(), m.cycle, m.current, &m.lockouts, m.assignee.as_deref(), m.escalated);
        if db != log {
            violations.push(format!("{key}: the database has {db:?}, its history {log:?}"));
        }
    }

    // The rules read straight from the tables.
    let checks: [(&'static str, &str); 8] = [
        (
            "select count(*) from (select artifact_id from assignments where ended_at is null
             group by artifact_id having count(*) > 1) d",
            "an artifact has two active assignments",
        ),
        (
            "select count(*) from artifacts a
             where (a.state = 'in_revision')
                <> exists (select 1 from assignments s where s.artifact_id = a.id and s.ended_at is null)",
            "an active assignment exists other than exactly while in revision",
        ),
        (
            "select count(*) from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number
             where r.reviewer = v.author
                or exists (select 1 from version_contributors c
                           where c.artifact_id = r.artifact_id and c.number = r.number and c.agent_id = r.reviewer)",
            "a reviewer judged a version they are credited on",
        ),
        (
            // A lockout clears only at the approval of a later version of its cycle, or by a lift.
            "select count(*) from lockouts l where l.cleared_at is not null and not (
                 l.cleared_by = 'lift'
                 or (l.cleared_by = 'approval' and exists (
                     select 1 from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number
                     where r.artifact_id = l.artifact_id and r.verdict = 'approve' and r.number > l.number
                       and v.cycle = l.cycle)))",
            "a lockout was cleared other than by an approval or a lift",
        ),
        (
            "select abs((select count(*) from lockouts where cleared_by = 'lift')
                      - (select count(*) from events where type = 'lockout.lifted'))",
            "lifted lockouts and lift events differ",
        ),
        (
            // R6 in hindsight: a lockout of an earlier version of the cycle that no lift freed.
            "select count(*) from versions v
             join lateral (select v.author as agent
                           union all
                           select c.agent_id from version_contributors c
                           where c.artifact_id = v.artifact_id and c.number = v.number) credit on true
             join lockouts l on l.artifact_id = v.artifact_id and l.agent_id = credit.agent
                            and l.cycle = v.cycle and l.number < v.number
                            and l.cleared_by is distinct from 'lift'",
            "a version credits an agent locked out at the time",
        ),
        (
            // The state against the current version's verdicts.
            "select count(*) from artifacts a join teams t on t.id = a.team_id,
                 lateral (select count(*) filter (where r.verdict = 'approve') as approvals,
                                 count(*) filter (where r.verdict = 'reject') as rejections
                          from reviews r where r.artifact_id = a.id and r.number = a.current_version) d
             where not case a.state
                 when 'approved' then d.approvals >= t.required_approvals and d.rejections = 0
                 when 'in_review' then d.approvals < t.required_approvals and d.rejections = 0
                 else d.rejections = 1 end
                or (a.state = 'deadlocked') <> exists (select 1 from escalations e
                                                       where e.artifact_id = a.id and e.resolved_at is null)",
            "an artifact's state does not match its current version's verdicts",
        ),
        (
            "select count(*) from artifacts a
             where a.current_version <> (select max(number) from versions v where v.artifact_id = a.id)
                or a.current_version <> (select count(*) from versions v where v.artifact_id = a.id)",
            "versions are not numbered 1..current_version",
        ),
    ];
    for (sql, what) in checks {
        let n = scalar(pool, sql).await;
        if n != 0 {
            violations.push(format!("{what} ({n})"));
        }
    }
    violations
}

fn tally_line(ledger: &Ledger) -> String {
    let refused: usize = ledger.refusals.values().sum();
    let mut by_status: BTreeMap<&str, usize> = BTreeMap::new();
    for (outcome, n) in &ledger.refusals {
        *by_status.entry(&outcome[..3]).or_default() += n;
    }
    let mut by_event: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &ledger.acks[ledger.setup..] {
        *by_event.entry(&a.event).or_default() += 1;
        if a.body["artifact"]["state"] == "deadlocked" {
            *by_event.entry("(deadlocks)").or_default() += 1;
        }
    }
    format!(
        "{} operations ({} reads, {} writes): {} writes 2xx {by_event:?}, {refused} refused {by_status:?}, \
         {} unanswered (+{} setup writes)",
        ledger.reads + ledger.writes,
        ledger.reads,
        ledger.writes,
        ledger.acks.len() - ledger.setup,
        ledger.unanswered,
        ledger.setup
    )
}

// ---------------------------------------------------------------------------------------------
// The tests

/// Item 1: three replicas on one database, sixteen coordinators for ten seconds.
#[sqlx::test]
async fn three_replicas_keep_the_rules(pool: PgPool) {
    let database = database_url(&pool);
    let replicas = [start(&database, &[]).await, start(&database, &[]).await, start(&database, &[]).await];
    let mut ctx = setup(replicas[0].client()).await;
    ctx.replicas = replicas.iter().map(Server::client).collect();
    let ctx = Arc::new(ctx);

    let until = Instant::now() + Duration::from_secs(10);
    let tasks: Vec<_> =
        (0..16u64).map(|i| tokio::spawn(coordinator(ctx.clone(), 1000 + i, until, false))).collect();
    for task in tasks {
        task.await.expect("a coordinator panicked");
    }

    let ledger = std::mem::take(&mut *ctx.ledger.lock().unwrap());
    let violations = check(&pool, &ledger.acks, ledger.unanswered).await;
    let server_errors: usize =
        ledger.refusals.iter().filter(|(o, _)| o.starts_with('5')).map(|(_, n)| n).sum();
    println!(
        "replicas: 3 replicas, 16 coordinators, 10 s: {}; violations: {}",
        tally_line(&ledger),
        violations.len()
    );
    println!("replicas: refusals by code: {:?}", ledger.refusals);
    for v in &violations {
        println!("VIOLATION: {v}");
    }
    assert_eq!(ledger.unanswered, 0, "every request was answered");
    assert_eq!(server_errors, 0, "no 5xx: {:?}", ledger.refusals);
    assert!(ledger.acks.len() > ledger.setup + 50, "the run did little: {}", tally_line(&ledger));
    assert_eq!(violations.len(), 0, "{violations:#?}");
    drop(replicas);
}

/// Item 3: `kill -9` under load, restart on the same database.
#[sqlx::test]
async fn a_killed_server_loses_no_acknowledged_write(pool: PgPool) {
    let database = database_url(&pool);
    let server = start(&database, &[]).await;
    let mut ctx = setup(server.client()).await;
    ctx.keys = true;
    let ctx = Arc::new(ctx);

    let until = Instant::now() + Duration::from_secs(30);
    let tasks: Vec<_> =
        (0..6u64).map(|i| tokio::spawn(coordinator(ctx.clone(), 2000 + i, until, true))).collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut server = server;
    server.kill();
    for task in tasks {
        tokio::time::timeout(Duration::from_secs(40), task).await.expect("a coordinator hung").unwrap();
    }
    let ledger = std::mem::take(&mut *ctx.ledger.lock().unwrap());

    let restarted = start(&database, &[]).await;
    let violations = check(&pool, &ledger.acks, ledger.unanswered).await;
    for v in &violations {
        println!("VIOLATION: {v}");
    }

    // Every acknowledged request sent with a key replays its first answer.
    let mut replayed = 0;
    let mut mismatches = Vec::new();
    for ack in &ledger.acks {
        let Some(sent) = &ack.sent else { continue };
        let request = restarted.client().request(sent.method.clone(), &sent.path).bearer(&sent.token);
        let request = request.header("idempotency-key", &sent.key).json(sent.body.clone());
        let r = request.send().await.unwrap();
        let flagged = r.header("idempotency-replayed") == "true";
        if r.status != ack.status || !flagged || r.bytes != ack.bytes {
            mismatches.push(format!(
                "{} {}: {} {} (replayed: {flagged})",
                sent.method, sent.path, r.status, r.body
            ));
        }
        replayed += 1;
    }
    println!(
        "crash: kill -9 after 3 s: {}; {replayed} idempotent writes replayed, {} mismatched; violations: {}",
        tally_line(&ledger),
        mismatches.len(),
        violations.len()
    );
    assert!(replayed > 0, "no acknowledged write carried a key");
    assert_eq!(mismatches, Vec::<String>::new());
    assert_eq!(violations.len(), 0, "{violations:#?}");
    drop(restarted);
}

/// Item 6: SIGTERM while a write waits on a row lock: it completes, new connections are turned
/// away, and the process exits by itself within the drain timeout.
#[sqlx::test]
async fn sigterm_drains_an_in_flight_write(pool: PgPool) {
    let database = database_url(&pool);
    let drain = Duration::from_secs(10);
    let mut server = start(&database, &[("REVIEWLOCK_SHUTDOWN_TIMEOUT", "10s")]).await;
    let ctx = setup(server.client()).await;

    // Hold m0's row so the review waits inside its transaction.
    let mut holder = pool.begin().await.unwrap();
    sqlx::query("select id from artifacts where team_id = $1 and key = 'm0' for update")
        .bind(TEAM)
        .execute(&mut *holder)
        .await
        .unwrap();
    let path = format!("/v1/teams/{TEAM}/artifacts/m0/versions/1/reviews");
    let body = json!({ "reviewer": "r0", "verdict": "approve" });
    let review = server.client().request(Method::POST, &path).bearer(&ctx.coord).json(body);
    let in_flight = tokio::spawn(review.send());
    // Wait until the review's transaction is blocked on the lock.
    let started = Instant::now();
    loop {
        let waiting = scalar(
            &pool,
            "select count(*) from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'",
        )
        .await;
        if waiting >= 1 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(15), "the review never waited on the row lock");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    server.terminate();
    let signalled = Instant::now();

    // New connections are turned away: refused, or answered 503.
    let turned_away = loop {
        match server.client().get("/healthz").send().await {
            Err(e) => break e,
            Ok(r) if r.status == 503 => break "503".to_owned(),
            Ok(_) => {}
        }
        assert!(signalled.elapsed() < Duration::from_secs(5), "new requests are still served after SIGTERM");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(!in_flight.is_finished(), "the in-flight write ended before its lock was released");

    // Release the lock: the write completes and is answered.
    holder.rollback().await.unwrap();
    let reply = tokio::time::timeout(drain, in_flight).await.expect("the in-flight write hung").unwrap();
    let reply = reply.expect("the in-flight write got no answer");
    assert_eq!(reply.status, 201, "{}", reply.body);
    let id = reply.body["review"]["id"].as_i64().unwrap();
    let stored: i64 = sqlx::query_scalar("select count(*) from reviews where id = $1 and reviewer = 'r0'")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(stored, 1, "the drained write is in the database");

    // The process exits by itself, successfully, within the drain timeout (plus a margin).
    let exit = loop {
        if let Some(status) = server.exited() {
            break status;
        }
        assert!(
            signalled.elapsed() < drain + Duration::from_secs(10),
            "the server did not exit after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    println!(
        "shutdown: new connection after SIGTERM: {turned_away}; in-flight review answered {} and stored; \
         exited {exit} {:.1} s after SIGTERM",
        reply.status,
        signalled.elapsed().as_secs_f64()
    );
    assert!(exit.success(), "exit status {exit}");
    // The drained review is the one write after the setup.
    let mut acks = std::mem::take(&mut ctx.ledger.lock().unwrap().acks);
    acks.push(Ack {
        event: "review.approved".into(),
        artifact: Some("m0".into()),
        body: reply.body.clone(),
        status: reply.status,
        bytes: reply.bytes.clone(),
        sent: None,
    });
    let violations = check(&pool, &acks, 0).await;
    assert_eq!(violations, Vec::<String>::new());
}

/// Replicas cache tokens that authenticated (`REVIEWLOCK_TOKEN_CACHE_TTL`): a token revoked
/// through one replica is refused there at once, and by another within the TTL.
#[sqlx::test]
async fn a_token_revoked_through_one_replica_is_refused_by_another_within_the_ttl(pool: PgPool) {
    let database = database_url(&pool);
    let ttl = Duration::from_secs(1);
    let a = start(&database, &[("REVIEWLOCK_TOKEN_CACHE_TTL", "1s")]).await;
    let b = start(&database, &[("REVIEWLOCK_TOKEN_CACHE_TTL", "1s")]).await;
    let ctx = setup(a.client()).await;
    let team = format!("/v1/teams/{TEAM}");
    let read =
        async |server: &Server| server.client().get(&team).bearer(&ctx.coord).send().await.unwrap().status;
    // Both replicas have authenticated the token, so both hold it.
    assert_eq!(read(&a).await, 200);
    assert_eq!(read(&b).await, 200);
    let tokens = a.client().get(&format!("{team}/tokens")).bearer(ADMIN).send().await.unwrap();
    let id =
        tokens.body["items"].as_array().unwrap().iter().find(|t| t["name"] == "coordinator").unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
    let revoked = a
        .client()
        .request(Method::DELETE, &format!("{team}/tokens/{id}"))
        .bearer(ADMIN)
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status, 204);
    let at = Instant::now();
    assert_eq!(read(&a).await, 401, "the replica that revoked refuses the token at once");
    loop {
        match read(&b).await {
            401 => break,
            200 => assert!(at.elapsed() < ttl + Duration::from_millis(500), "still accepted after the TTL"),
            other => panic!("answered {other}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
