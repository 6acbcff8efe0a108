//! R14 under load: every read answers one moment of the database. Writers drive artifacts round
//! every state of the protocol while readers poll every view; a body that mixes rows from before
//! and after a commit breaks a rule that holds at every single moment (an artifact `in_review`
//! whose author is locked out, `approved` with a rejection as its only verdict…), and a tag that
//! covers two different bodies breaks "an `ETag` changes whenever any part of the body would".
//!
//! Each write commits while several reads are between their statements, so a read that is not
//! one snapshot is caught within seconds: the readers count the torn bodies and the test asserts
//! there are none.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::Reply;
use crate::concurrency::{done, race_team};
use crate::examples::Team;

/// Writer tasks, each driving its own artifacts (writes to one artifact serialize on its row,
/// so more writers than artifacts would only queue).
const WRITERS: usize = 3;
const ARTIFACTS_PER_WRITER: usize = 2;
/// Reader tasks polling every view while the writers write.
const READERS: usize = 6;
/// How long the writers keep going once each artifact has been round every state once.
const RUN: Duration = Duration::from_secs(12);

/// One write of an artifact's lap.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Q rejects the current version, asking for someone else.
    Reject,
    /// Q approves the current version: the cycle ends and its lockouts clear.
    Approve,
    /// The coordinator assigns the reviser.
    Assign(&'static str),
    /// A version by this author: the assignee's revision, or a new cycle after approval.
    Version(&'static str),
    /// The user lifts this agent's lockout (R10), so it may resolve the deadlock.
    Lift(&'static str),
    /// The user resolves the deadlock by assigning this agent (R9).
    Resolve(&'static str),
}

/// An artifact's lap, from `in_review` (a version by `a`) back to `in_review`: each step with
/// the state it leaves. It goes through every state but `abandoned`: a plain reassign and
/// approval, then a cycle in which `a`, `b` and `c` are rejected in turn until nobody is left
/// (deadlocked), the user frees `a` and assigns it, and `a`'s revision is approved.
const LAP: [(Step, &str); 17] = [
    (Step::Reject, "changes_requested"),
    (Step::Assign("b"), "in_revision"),
    (Step::Version("b"), "in_review"),
    (Step::Approve, "approved"),
    (Step::Version("a"), "in_review"),
    (Step::Reject, "changes_requested"),
    (Step::Assign("b"), "in_revision"),
    (Step::Version("b"), "in_review"),
    (Step::Reject, "changes_requested"),
    (Step::Assign("c"), "in_revision"),
    (Step::Version("c"), "in_review"),
    (Step::Reject, "deadlocked"),
    (Step::Lift("a"), "deadlocked"),
    (Step::Resolve("a"), "in_revision"),
    (Step::Version("a"), "in_review"),
    (Step::Approve, "approved"),
    (Step::Version("a"), "in_review"),
];

/// The lockouts an artifact can have at any one moment of its lap.
const LOCKOUT_SETS: [&[&str]; 4] = [&["a"], &["a", "b"], &["a", "b", "c"], &["b", "c"]];

/// What the readers (and the writers, of their own replies) found.
#[derive(Default)]
struct Findings {
    /// Bodies checked, by view.
    reads: BTreeMap<&'static str, usize>,
    /// Conditional reads answered `304`.
    not_modified: usize,
    /// Bodies breaking at least one rule.
    torn: usize,
    /// Broken rules, by view and rule.
    broken: BTreeMap<(&'static str, &'static str), usize>,
    /// The first few torn bodies, for the failure message.
    examples: Vec<String>,
    /// Every body seen under each (path, ETag): one tag must always mean one body.
    tagged: HashMap<(String, String), Vec<u8>>,
}

/// [`Findings`], shared by every task.
#[derive(Default)]
struct Shared(Mutex<Findings>);

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Findings> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a checked body of `view` and the rules it broke. A tagged body is also compared
    /// with every earlier body under the same path and tag.
    fn record(&self, view: &'static str, path: &str, reply: &Reply, mut broken: Vec<&'static str>) {
        let mut findings = self.lock();
        if let Some(tag) = etag(reply) {
            let seen = findings
                .tagged
                .entry((path.to_owned(), tag.to_owned()))
                .or_insert_with(|| reply.bytes.clone());
            if *seen != reply.bytes {
                broken.push("the same ETag always comes with the same body");
            }
        }
        *findings.reads.entry(view).or_default() += 1;
        if broken.is_empty() {
            return;
        }
        findings.torn += 1;
        for rule in &broken {
            *findings.broken.entry((view, rule)).or_default() += 1;
        }
        if findings.examples.len() < 3 {
            let body = String::from_utf8_lossy(&reply.bytes);
            findings.examples.push(format!("{view} {path} broke {broken:?}: {body:.1500}"));
        }
    }
}

fn etag(reply: &Reply) -> Option<&str> {
    reply.headers.get("etag").and_then(|v| v.to_str().ok())
}

fn strs(values: &Value) -> impl Iterator<Item = &str> {
    values.as_array().into_iter().flatten().filter_map(Value::as_str)
}

fn agents_of(items: &Value) -> BTreeSet<&str> {
    items.as_array().into_iter().flatten().filter_map(|l| l["agent"].as_str()).collect()
}

/// The rules an artifact's status breaks: each holds at every moment, so a body breaking one
/// combines rows from before and after some commit.
fn status_rules(status: &Value) -> Vec<&'static str> {
    let mut broken = Vec::new();
    let mut rule = |holds: bool, what: &'static str| {
        if !holds {
            broken.push(what);
        }
    };
    let state = status["state"].as_str().unwrap_or_default();
    let current = &status["current_version"];
    let locked = agents_of(&status["lockouts"]);
    let mut credited = agents_of(&current["contributors"]);
    credited.extend(current["author"].as_str());
    let verdicts: Vec<&str> =
        current["reviews"].as_array().into_iter().flatten().filter_map(|r| r["verdict"].as_str()).collect();

    rule(
        status["assignment"].is_null() != (state == "in_revision"),
        "an assignment exactly while in_revision",
    );
    rule(status["escalation"].is_null() != (state == "deadlocked"), "an escalation exactly while deadlocked");
    match state {
        "in_review" => {
            rule(credited.is_disjoint(&locked), "in_review: nobody credited on the version is locked out");
            rule(verdicts.is_empty(), "in_review: the version under review has no deciding verdict");
        }
        "approved" => {
            rule(locked.is_empty(), "approved: no lockouts");
            rule(verdicts.contains(&"approve"), "approved: the current version has an approval");
        }
        "changes_requested" | "in_revision" | "deadlocked" => {
            rule(verdicts.contains(&"reject"), "awaiting a revision: the current version was rejected");
            rule(!locked.is_empty(), "awaiting a revision: someone is locked out");
        }
        _ => rule(false, "a state of the lap"),
    }
    rule(strs(&status["eligible_agents"]).all(|a| !locked.contains(a)), "no eligible agent is locked out");
    rule(
        current["reviews"].as_array().into_iter().flatten().all(|r| r["version"] == current["number"]),
        "the current version's reviews are its own",
    );
    rule(
        status["lockouts"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|l| l["version"].as_i64() <= current["number"].as_i64()),
        "a lockout names a version that exists",
    );
    rule(current["cycle"] == status["cycle"], "the current version is of the current cycle");
    broken
}

/// A page of versions: numbered in turn, each with only its own reviews; in this lap every
/// version is decided by exactly one verdict before the next is written.
fn versions_rules(page: &Value, after: i64) -> Vec<&'static str> {
    let items = page["items"].as_array().cloned().unwrap_or_default();
    let numbers: Vec<i64> = items.iter().filter_map(|v| v["number"].as_i64()).collect();
    let mut broken = Vec::new();
    if numbers != (after + 1..after + 1 + items.len() as i64).collect::<Vec<_>>() {
        broken.push("versions are numbered in turn");
    }
    if !items
        .iter()
        .all(|v| v["reviews"].as_array().into_iter().flatten().all(|r| r["version"] == v["number"]))
    {
        broken.push("a version's reviews are its own");
    }
    let decided = if page["next_cursor"].is_null() { items.len().saturating_sub(1) } else { items.len() };
    if !items[..decided].iter().all(|v| v["reviews"].as_array().is_some_and(|r| r.len() == 1)) {
        broken.push("every version but the last has its one verdict");
    }
    broken
}

/// The team's active lockouts: each artifact's are one of the lap's sets.
fn lockouts_rules(page: &Value) -> Vec<&'static str> {
    let mut by_artifact: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for l in page["items"].as_array().into_iter().flatten() {
        let artifact = l["artifact"].as_str().unwrap_or_default();
        by_artifact.entry(artifact).or_default().extend(l["agent"].as_str());
    }
    let valid = by_artifact.values_mut().all(|agents| {
        agents.sort_unstable();
        LOCKOUT_SETS.contains(&agents.as_slice())
    });
    if valid { vec![] } else { vec!["an artifact's lockouts are a set its lap goes through"] }
}

/// Open escalations: one per deadlocked artifact, each after `a`, `b` and `c` were rejected.
fn escalations_rules(page: &Value) -> Vec<&'static str> {
    let items = page["items"].as_array().cloned().unwrap_or_default();
    let artifacts: BTreeSet<&str> = items.iter().filter_map(|e| e["artifact"].as_str()).collect();
    let mut broken = Vec::new();
    if artifacts.len() != items.len() {
        broken.push("one open escalation per artifact");
    }
    if !items.iter().all(|e| e["details"]["authors"] == json!(["a", "b", "c"])) {
        broken.push("an escalation lists the cycle's three authors");
    }
    broken
}

/// A page of events: a run of seqs from `after`, none newer than the page's ETag (the team's
/// last seq, `"e<seq>"`), or the same tag would cover a shorter page too.
fn events_rules(page: &Value, reply: &Reply, after: i64) -> Vec<&'static str> {
    let seqs: Vec<i64> =
        page["items"].as_array().into_iter().flatten().filter_map(|e| e["seq"].as_i64()).collect();
    let mut broken = Vec::new();
    if seqs != (after + 1..after + 1 + seqs.len() as i64).collect::<Vec<_>>() {
        broken.push("events are a run of seqs after `after`");
    }
    let tagged: Option<i64> =
        etag(reply).and_then(|t| t.trim_matches(|c: char| !c.is_ascii_digit()).parse().ok());
    if let (Some(tagged), Some(last)) = (tagged, seqs.last())
        && *last > tagged
    {
        broken.push("no event newer than the page's ETag");
    }
    broken
}

/// An agent with its active lockouts: at most one per artifact.
fn agent_rules(agent: &Value) -> Vec<&'static str> {
    let artifacts: Vec<&str> =
        agent["lockouts"].as_array().into_iter().flatten().filter_map(|l| l["artifact"].as_str()).collect();
    let distinct: BTreeSet<&str> = artifacts.iter().copied().collect();
    if distinct.len() == artifacts.len() { vec![] } else { vec!["one lockout per artifact"] }
}

/// What a writer did: writes, and the states its replies reported.
#[derive(Default)]
struct Written {
    writes: usize,
    states: BTreeSet<String>,
}

/// Drives `keys` round [`LAP`], one step of each in turn, until `until` has passed and every
/// artifact has done at least one whole lap. Each reply must be a success leaving the step's
/// state, and a status in a reply (built in the write's own transaction) must keep the rules.
async fn write_laps(t: Arc<Team>, keys: Vec<String>, until: Instant, findings: Arc<Shared>) -> Written {
    // The current version of each artifact: 1 after its creation.
    let mut numbers = vec![1; keys.len()];
    let mut written = Written::default();
    for round in 0.. {
        if round >= LAP.len() && Instant::now() >= until {
            break;
        }
        let (step, expected) = LAP[round % LAP.len()];
        for (key, number) in keys.iter().zip(&mut numbers) {
            let reply = match step {
                Step::Reject => t.reject(key, *number, json!({ "action": "reassign" })).await,
                Step::Approve => t.approve(key, *number).await,
                Step::Assign(agent) => t.assign(key, agent).await,
                Step::Version(author) => t.version(key, json!({ "author": author })).await,
                Step::Lift(agent) => {
                    let path = t.url(&format!("/artifacts/{key}/lockouts/{agent}/lift"));
                    t.api.post(&path, &t.user, json!({ "reason": "a gets another try" })).await
                }
                Step::Resolve(agent) => {
                    let path = t.url(&format!("/artifacts/{key}/resolution"));
                    let body = json!({ "action": "assign", "agent": agent, "reason": "a gets another try" });
                    t.api.post(&path, &t.user, body).await
                }
            };
            assert!(reply.status.is_success(), "{key}: {step:?} answered {}: {}", reply.status, reply.body);
            written.writes += 1;
            let status = match step {
                Step::Reject | Step::Approve => &reply.body["artifact"],
                // A version's reply is the version; its submission leaves the artifact in review.
                Step::Version(_) => {
                    *number = reply.body["number"].as_i64().expect("the version's number") as i32;
                    written.states.insert("in_review".into());
                    continue;
                }
                Step::Assign(_) | Step::Lift(_) | Step::Resolve(_) => &reply.body,
            };
            assert_eq!(status["state"], expected, "{key}: the state {step:?} leaves: {status}");
            written.states.insert(expected.into());
            findings.record("write reply", &format!("{step:?} {key}"), &reply, status_rules(status));
        }
    }
    written
}

/// Polls every view in turn until `stop`, checking each body. Every third status read and
/// every other list read is conditional on the last ETag this reader saw for it.
async fn read_views(
    t: Arc<Team>,
    r: usize,
    keys: Arc<Vec<String>>,
    stop: Arc<AtomicBool>,
    findings: Arc<Shared>,
) {
    let mut held: HashMap<String, String> = HashMap::new();
    let mut last_seq = 0i64;
    let mut last_version: HashMap<String, i64> = HashMap::new();
    for i in r.. {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let key = &keys[(i / 2) % keys.len()];
        let (view, path, conditional) = match i % 12 {
            1 => ("list", t.url("/artifacts"), i % 24 == 1),
            3 => {
                // The last few versions, where the one under review is.
                let after = last_version.get(key).map_or(0, |n| (n - 3).max(0));
                ("versions", t.url(&format!("/artifacts/{key}/versions?cursor={after}")), false)
            }
            5 => ("lockouts", t.url("/lockouts"), i % 24 == 5),
            7 => ("escalations", t.url("/escalations"), i % 24 == 7),
            // The newest events: `after` rounded down, so that readers ask the same pages.
            9 => ("events", t.url(&format!("/events?after={}&limit=50", last_seq / 8 * 8)), false),
            11 => ("agent", t.url("/agents/a"), false),
            _ => ("status", t.url(&format!("/artifacts/{key}")), i % 3 == 0),
        };
        let if_none_match = held.get(&path).filter(|_| conditional).cloned();
        let headers: Vec<(&str, &str)> =
            if_none_match.iter().map(|tag| ("if-none-match", tag.as_str())).collect();
        let reply = t.api.send_with(Method::GET, &path, Some(&t.coord), None, &headers).await;
        if reply.status == 304 {
            findings.lock().not_modified += 1;
            continue;
        }
        let body = reply.expect(200, None);
        if let Some(tag) = etag(&reply) {
            held.insert(path.clone(), tag.to_owned());
        }
        let broken = match view {
            "status" => status_rules(body),
            "versions" => {
                let after = path.rsplit('=').next().and_then(|a| a.parse().ok()).unwrap_or(0);
                if let Some(n) =
                    body["items"].as_array().and_then(|v| v.last()).and_then(|v| v["number"].as_i64())
                {
                    last_version.insert(key.clone(), n);
                }
                versions_rules(body, after)
            }
            "lockouts" => lockouts_rules(body),
            "escalations" => escalations_rules(body),
            "events" => {
                let after = last_seq / 8 * 8;
                last_seq = last_seq.max(body["next_after"].as_i64().unwrap_or(0));
                events_rules(body, &reply, after)
            }
            "agent" => agent_rules(body),
            _ => vec![],
        };
        findings.record(view, &path, &reply, broken);
    }
}

/// Writers take artifacts round every state while readers poll every view: no read may
/// combine two moments, and no ETag may cover two bodies.
#[sqlx::test]
async fn every_read_is_one_moment_while_writers_go_round_every_state(pool: PgPool) {
    let t = race_team(&pool, Value::Null, &["a", "b", "c"]).await;
    let keys: Vec<String> = (0..WRITERS * ARTIFACTS_PER_WRITER).map(|k| format!("m{k}")).collect();
    for key in &keys {
        t.create(key, "a").await.expect(201, None);
    }
    let keys = Arc::new(keys);
    let findings = Arc::new(Shared::default());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();

    let readers: Vec<_> = (0..READERS)
        .map(|r| tokio::spawn(read_views(t.clone(), r, keys.clone(), stop.clone(), findings.clone())))
        .collect();
    let writers: Vec<_> = keys
        .chunks(ARTIFACTS_PER_WRITER)
        .map(|mine| tokio::spawn(write_laps(t.clone(), mine.to_vec(), started + RUN, findings.clone())))
        .collect();
    let (mut writes, mut states) = (0, BTreeSet::new());
    for writer in writers {
        let written = writer.await.expect("writer");
        writes += written.writes;
        states.extend(written.states);
    }
    stop.store(true, Ordering::SeqCst);
    for reader in readers {
        reader.await.expect("reader");
    }
    done(t).await;

    let findings = findings.lock();
    let reads: usize =
        findings.reads.iter().filter(|(view, _)| **view != "write reply").map(|(_, n)| n).sum();
    eprintln!(
        "snapshot: {:.1} s, {writes} writes, {reads} bodies read ({:?}), {} answered 304, \
         states reached by the writers {states:?}; {} torn bodies {:?}",
        started.elapsed().as_secs_f64(),
        findings.reads,
        findings.not_modified,
        findings.torn,
        findings.broken,
    );
    let every_state = ["approved", "changes_requested", "deadlocked", "in_review", "in_revision"];
    assert_eq!(states, every_state.map(String::from).into(), "the writers went round every state");
    for view in ["status", "list", "versions", "lockouts", "escalations", "events", "agent"] {
        assert!(findings.reads.get(view).is_some_and(|n| *n > 0), "no {view} body was read");
    }
    assert_eq!(
        findings.torn,
        0,
        "{} of {reads} bodies combine two moments: {:?}\n{}",
        findings.torn,
        findings.broken,
        findings.examples.join("\n")
    );
}
