//! Database faults: the service on its own throwaway Postgres, stopped and
//! started again under load.
//!
//! Writers drive the protocol continuously (create, reject, assign, revise, approve), each write
//! with an `Idempotency-Key` and retried with it until it is acknowledged, and record every 2xx.
//! Postgres is stopped twice for about three seconds: meanwhile every request answers 503
//! `unavailable` within a bounded time (the pool's acquire timeout, never a hang), `/readyz` says
//! 503, `/healthz` 200 and the process lives on; once Postgres is back the service recovers by
//! itself; so does the lockout index, which answers checks again once its listener listens and it
//! has read what it missed. Afterwards the database is read directly: every acknowledged write is
//! there, exactly once, and nothing is half-applied.

mod process;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::Method;
use process::{Client, Reply, Serve, Server, free_port};
use serde_json::{Value, json};
use sqlx::PgPool;

const ADMIN: &str = "faults-admin-token";
const TEAM: &str = "faults";
const WRITERS: usize = 8;
const ENGINEERS: usize = 4;
/// How long Postgres stays down per fault.
const DOWN_FOR: Duration = Duration::from_secs(3);
const FAULTS: usize = 2;
/// A request sent while the database is down must answer within this (the acquire timeout is
/// 1 s): generous for a noisy machine, far from a hang.
const PROMPT: Duration = Duration::from_secs(5);
/// Any request at all: past this it counts as a hang.
const HANG: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------------------------
// The throwaway Postgres.

/// Runs a Postgres binary as the `postgres` OS user when the test runs as root (initdb and
/// postgres refuse to run as root), else as the current user.
fn postgres_command(program: &Path, as_postgres: bool) -> Command {
    if as_postgres {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// The `bin` directory of the highest PostgreSQL version under /usr/lib/postgresql.
fn postgres_bin() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let version = std::fs::read_dir(root)
        .expect("PostgreSQL server binaries under /usr/lib/postgresql")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|v| root.join(v.to_string()).join("bin/pg_ctl").exists())
        .max()
        .expect("a PostgreSQL version with bin/pg_ctl under /usr/lib/postgresql");
    root.join(version.to_string()).join("bin")
}

/// How to run `pg_ctl` on the cluster; cloned into blocking tasks.
#[derive(Clone)]
struct PgCtl {
    bin: PathBuf,
    as_postgres: bool,
    /// The temporary directory: `data/`, the socket, `postgres.log`.
    dir: PathBuf,
    port: u16,
}

impl PgCtl {
    fn run(&self, args: &[&str]) -> std::process::Output {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=50",
            self.port,
            self.dir.display()
        );
        postgres_command(&self.bin.join("pg_ctl"), self.as_postgres)
            .arg("-D")
            .arg(self.dir.join("data"))
            .arg("-o")
            .arg(options)
            .arg("-l")
            .arg(self.dir.join("postgres.log"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

/// A Postgres cluster in a temporary directory on a free port, stopped (immediately) on drop,
/// before the directory is removed.
struct Postgres {
    ctl: PgCtl,
    dir: tempfile::TempDir,
}

impl Postgres {
    fn init() -> Self {
        let bin = postgres_bin();
        let as_postgres = running_as_root();
        let dir = tempfile::Builder::new().prefix("reviewlock-faults-").tempdir().unwrap();
        if as_postgres {
            let chown = Command::new("chown").arg("postgres").arg(dir.path()).status().unwrap();
            assert!(chown.success(), "chown postgres {}", dir.path().display());
        }
        let out = postgres_command(&bin.join("initdb"), as_postgres)
            .arg("-D")
            .arg(dir.path().join("data"))
            .args(["--auth=trust", "-U", "postgres", "--no-sync"])
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb failed: {}", String::from_utf8_lossy(&out.stderr));
        let ctl = PgCtl { bin, as_postgres, dir: dir.path().to_owned(), port: free_port() };
        Postgres { ctl, dir }
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/reviewlock", self.ctl.port)
    }

    async fn pg_ctl(&self, args: &'static [&'static str]) {
        let ctl = self.ctl.clone();
        let out = tokio::task::spawn_blocking(move || ctl.run(args)).await.unwrap();
        assert!(
            out.status.success(),
            "pg_ctl {args:?} failed: {}{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.path().join("postgres.log")).unwrap_or_default()
        );
    }

    async fn start(&self) {
        self.pg_ctl(&["-w", "-t", "60", "start"]).await;
    }

    async fn stop(&self) {
        self.pg_ctl(&["-w", "-t", "60", "-m", "fast", "stop"]).await;
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.ctl.run(&["-w", "-t", "30", "-m", "immediate", "stop"]);
    }
}

// ---------------------------------------------------------------------------------------------
// The writers.

/// An acknowledged (2xx) write.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Ack {
    Created { key: String, author: String },
    Rejected { key: String, number: i32, reviewer: String },
    Assigned { key: String, agent: String },
    Version { key: String, number: i32, author: String },
    Approved { key: String, number: i32, reviewer: String },
}

/// What every writer and the fault controller share.
#[derive(Default)]
struct Tally {
    acks: Mutex<Vec<Ack>>,
    acked: AtomicU64,
    /// Acknowledgements that were replays of an earlier attempt whose answer was a 503.
    replayed: AtomicU64,
    unavailable: AtomicU64,
    /// The database is (being) stopped: requests must answer within [`PROMPT`].
    down: AtomicBool,
    slowest_while_down: Mutex<Duration>,
    stop: AtomicBool,
    /// Anything a request answered that it must not have: a 500, another code, a slow answer
    /// while the database was down, a hang or a dead server.
    failures: Mutex<Vec<String>>,
}

impl Tally {
    fn fail(&self, what: String) {
        eprintln!("faults: FAILURE: {what}");
        self.failures.lock().unwrap().push(what);
    }

    /// Checks a reply's latency against the bound that holds while the database is down.
    fn timed(&self, sent_while_down: bool, reply: &Reply, what: &str) {
        if sent_while_down || self.down.load(Ordering::SeqCst) {
            let mut slowest = self.slowest_while_down.lock().unwrap();
            *slowest = (*slowest).max(reply.elapsed);
            if reply.elapsed > PROMPT {
                self.fail(format!(
                    "{what}: answered {} after {:?} while the database was down",
                    reply.status, reply.elapsed
                ));
            }
        }
    }
}

/// One protocol write, retried with its `Idempotency-Key` until acknowledged. `None` when the
/// write failed in a way it must not (recorded in the tally).
async fn write(
    client: Client,
    tally: &Tally,
    token: &str,
    path: &str,
    body: Value,
    key: &str,
) -> Option<Value> {
    let mut retried = false;
    loop {
        let down = tally.down.load(Ordering::SeqCst);
        let request = client.request(Method::POST, path).bearer(token).header("idempotency-key", key);
        let reply = match request.json(body.clone()).send().await {
            Ok(reply) => reply,
            Err(e) => {
                tally.fail(e);
                return None;
            }
        };
        tally.timed(down, &reply, path);
        if (200..300).contains(&reply.status) {
            if reply.header("idempotency-replayed") == "true" {
                assert!(retried, "a first attempt was replayed: {path}");
                tally.replayed.fetch_add(1, Ordering::SeqCst);
            }
            return Some(reply.body);
        }
        if reply.is_problem(503, "unavailable") {
            tally.unavailable.fetch_add(1, Ordering::SeqCst);
            retried = true;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        tally.fail(format!("POST {path}: {} {} {}", reply.status, reply.header("content-type"), reply.body));
        return None;
    }
}

/// Drives artifacts `w{id}-{n}` through create → reject → assign → revise → approve until told
/// to stop (checked between writes), recording each acknowledged write.
async fn writer(client: Client, tally: Arc<Tally>, token: String, id: usize) {
    let base = format!("/v1/teams/{TEAM}/artifacts");
    let author = format!("eng-{}", id % ENGINEERS);
    let reviser = format!("eng-{}", (id + 1) % ENGINEERS);
    let reviewer = format!("rev-{}", id % 2);
    'artifacts: for n in 0.. {
        let key = format!("w{id}-{n}");
        let steps: [(String, Value, Ack); 5] = [
            (
                base.clone(),
                json!({ "key": key, "title": format!("Artifact {key}"), "author": author,
                        "paths": [format!("src/{key}/**")] }),
                Ack::Created { key: key.clone(), author: author.clone() },
            ),
            (
                format!("{base}/{key}/versions/1/reviews"),
                json!({ "reviewer": reviewer, "verdict": "reject", "grounds": "quality",
                        "reason": "Error handling is missing.", "remedy": { "action": "reassign" } }),
                Ack::Rejected { key: key.clone(), number: 1, reviewer: reviewer.clone() },
            ),
            (
                format!("{base}/{key}/assignment"),
                json!({ "agent": reviser }),
                Ack::Assigned { key: key.clone(), agent: reviser.clone() },
            ),
            (
                format!("{base}/{key}/versions"),
                json!({ "author": reviser, "ref": format!("{n:07x}") }),
                Ack::Version { key: key.clone(), number: 2, author: reviser.clone() },
            ),
            (
                format!("{base}/{key}/versions/2/reviews"),
                json!({ "reviewer": reviewer, "verdict": "approve" }),
                Ack::Approved { key: key.clone(), number: 2, reviewer: reviewer.clone() },
            ),
        ];
        for (step, (path, body, ack)) in steps.into_iter().enumerate() {
            if tally.stop.load(Ordering::SeqCst) {
                break 'artifacts;
            }
            let Some(answer) = write(client, &tally, &token, &path, body, &format!("{key}-{step}")).await
            else {
                break 'artifacts;
            };
            if let Ack::Version { number, .. } = &ack
                && answer["number"] != json!(number)
            {
                tally.fail(format!("{path}: version {} instead of {number}", answer["number"]));
                break 'artifacts;
            }
            tally.acks.lock().unwrap().push(ack);
            tally.acked.fetch_add(1, Ordering::SeqCst);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The test.

/// Waits until the writers acknowledged `more` writes after now; `false` past `within`.
async fn until_acked(tally: &Tally, more: u64, within: Duration) -> bool {
    let from = tally.acked.load(Ordering::SeqCst);
    let started = Instant::now();
    while started.elapsed() < within {
        if tally.acked.load(Ordering::SeqCst) >= from + more {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_restarts_under_load_lose_no_acknowledged_write() {
    let started = Instant::now();
    // Dropped in reverse order: the server first, then Postgres, even on a failed assertion.
    let pg = Postgres::init();
    pg.start().await;
    let mut server = Serve::new(&pg.url(), ADMIN)
        .envs(&[
            ("REVIEWLOCK_RATE_LIMIT", "0"),
            ("REVIEWLOCK_DB_ACQUIRE_TIMEOUT", "1s"),
            ("REVIEWLOCK_LOG_FORMAT", "json"),
            // Warnings, and the event listener's (re)connections.
            ("RUST_LOG", "warn,reviewlock::store::listener=debug"),
        ])
        .log(pg.dir.path().join("reviewlock.log"))
        .start()
        .await;
    let client = server.client().timeout(HANG);

    // A team, a coordinator token, engineers and reviewers.
    let team = format!("/v1/teams/{TEAM}");
    let put = |path: &str, token: &str, body: Value| {
        client.request(Method::PUT, path).bearer(token).json(body).must()
    };
    put(&team, ADMIN, json!({ "display_name": "Faults" })).await;
    let body = json!({ "name": "writers", "scope": "coordinator" });
    let created = client.request(Method::POST, &format!("{team}/tokens")).bearer(ADMIN).json(body);
    let token = created.must().await.body["token"].as_str().unwrap().to_owned();
    for e in 0..ENGINEERS {
        put(&format!("{team}/agents/eng-{e}"), &token, json!({ "roles": ["engineer"] })).await;
    }
    for r in 0..2 {
        let body = json!({ "roles": ["tester"], "can_review": true, "can_author": false });
        put(&format!("{team}/agents/rev-{r}"), &token, body).await;
    }

    // The lockout index loads the team on its first check, and answers the next ones.
    let check = |min_seq: Option<i64>| {
        let mut body = json!({ "agent": "eng-0", "paths": ["src/w0-0/lib.rs"] });
        if let Some(seq) = min_seq {
            body["min_seq"] = json!(seq);
        }
        client.request(Method::POST, &format!("{team}/checks")).bearer(&token).json(body).must()
    };
    check(None).await;
    let by_index = async || {
        let page = client.get("/metrics").send().await.unwrap();
        let text = String::from_utf8_lossy(&page.bytes).into_owned();
        let line = text.lines().find(|l| l.starts_with("reviewlock_checks_total{answered_by=\"index\"}"));
        line.and_then(|l| l.rsplit(' ').next()?.parse::<u64>().ok()).expect("the index's count of checks")
    };

    let tally = Arc::new(Tally::default());
    let writers: Vec<_> =
        (0..WRITERS).map(|id| tokio::spawn(writer(client, tally.clone(), token.clone(), id))).collect();
    assert!(
        until_acked(&tally, 20, Duration::from_secs(20)).await,
        "the writers made no progress before the faults"
    );

    let mut faults = 0;
    let mut recoveries = 0;
    let mut recovery_times = Vec::new();
    let mut last_restart = Instant::now();
    for fault in 1..=FAULTS {
        let before = tally.unavailable.load(Ordering::SeqCst);
        tally.down.store(true, Ordering::SeqCst);
        pg.stop().await;
        faults += 1;
        let stopped = Instant::now();

        // While it is down: not ready, but alive; reads and writes answer 503 promptly.
        let ready = client.get("/readyz").send().await.unwrap();
        tally.timed(true, &ready, "/readyz");
        assert!(
            ready.is_problem(503, "unavailable"),
            "fault {fault}: /readyz answered {} {}",
            ready.status,
            ready.body
        );
        let health = client.get("/healthz").send().await.unwrap();
        assert_eq!(health.status, 200, "fault {fault}: /healthz while the database is down");
        let read = client.get(&format!("{team}/artifacts/w0-0")).bearer(&token).send().await.unwrap();
        tally.timed(true, &read, "GET artifact");
        assert!(
            read.is_problem(503, "unavailable"),
            "fault {fault}: a read answered {} {}",
            read.status,
            read.body
        );
        assert_eq!(read.header("retry-after"), "2", "fault {fault}: a 503 says when to come back");
        while stopped.elapsed() < DOWN_FOR {
            assert!(server.alive(), "fault {fault}: the server exited while the database was down");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(server.alive(), "fault {fault}: the server exited while the database was down");
        let seen = tally.unavailable.load(Ordering::SeqCst) - before;
        assert!(seen > 0, "fault {fault}: no writer saw a 503 while the database was down");

        pg.start().await;
        last_restart = Instant::now();
        tally.down.store(false, Ordering::SeqCst);
        let Some(recovered) = server.until_ready(Duration::from_secs(15)).await else {
            panic!("fault {fault}: /readyz did not answer 200 within 15 s of Postgres starting again");
        };
        assert!(
            until_acked(&tally, WRITERS as u64, Duration::from_secs(15)).await,
            "fault {fault}: writes did not succeed again within 15 s"
        );
        assert!(server.alive());
        recoveries += 1;
        recovery_times.push(recovered);
        eprintln!(
            "faults: fault {fault}: {seen} 503s while down; ready again {recovered:?} after the restart"
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    // The event listener: it lost its connection at each fault and listens again, with
    // backoff; once it does, a long poll is woken by the notification (well before the 15 s
    // fallback re-read).
    let listening = |server: &Server| server.log_lines_containing("listening for events");
    while listening(&server) < 1 + FAULTS && last_restart.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (listens, lost) =
        (listening(&server), server.log_lines_containing("the event listener lost its connection"));
    // An upper bound: polled after the last recovery was checked.
    let relistened_after = last_restart.elapsed();
    for line in server.log_text().lines() {
        if line.contains("reviewlock::store::listener") {
            eprintln!("faults: server log: {line}");
        }
    }
    assert!(
        listens > FAULTS,
        "the event listener did not listen again after each restart ({listens} listens)"
    );
    let (wake, roster_change) = {
        let seq = {
            let pool = PgPool::connect(&pg.url()).await.unwrap();
            let seq: i64 = sqlx::query_scalar("select last_event_seq from team_seqs where team_id = $1")
                .bind(TEAM)
                .fetch_one(&pool)
                .await
                .unwrap();
            pool.close().await;
            seq
        };
        let poll = {
            let token = token.clone();
            let path = format!("{team}/events?after={seq}&wait=30");
            tokio::spawn(async move { client.get(&path).bearer(&token).send().await })
        };
        tokio::time::sleep(Duration::from_millis(500)).await;
        // Writers are still running: they commit events; one more write makes sure. A roster
        // change, which every write decides on: it must not wait for a gap in the writes.
        let late = put(&format!("{team}/agents/eng-late"), &token, json!({ "roles": ["engineer"] })).await;
        let reply = poll.await.unwrap().unwrap();
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert!(!reply.body["items"].as_array().unwrap().is_empty(), "the long poll answered no event");
        (reply.elapsed, late.elapsed)
    };
    assert!(wake < Duration::from_secs(10), "the long poll took {wake:?}: was it woken by the listener?");
    assert!(
        roster_change < PROMPT,
        "a roster change under load took {roster_change:?}: did the writes starve it of the team's lock?"
    );

    // The index, not current while the listener was down (the database answered, or its 503),
    // answers again once the listener listens and the team has read what it missed: a check at
    // the team's latest seq is answered by it within a few seconds.
    let index_recovered = {
        let started = Instant::now();
        let mut recovered = None;
        while recovered.is_none() && started.elapsed() < Duration::from_secs(20) {
            let pool = PgPool::connect(&pg.url()).await.unwrap();
            let seq: i64 = sqlx::query_scalar("select last_event_seq from team_seqs where team_id = $1")
                .bind(TEAM)
                .fetch_one(&pool)
                .await
                .unwrap();
            pool.close().await;
            let before = by_index().await;
            let answer = check(Some(seq)).await;
            assert!(
                answer.body["seq"].as_i64().unwrap() >= seq,
                "a check at or past min_seq: {}",
                answer.body
            );
            if by_index().await > before {
                recovered = Some(started.elapsed());
            }
        }
        recovered.expect("the lockout index never answered again after the restarts")
    };

    // Stop the writers, each after its current write.
    tally.stop.store(true, Ordering::SeqCst);
    for w in writers {
        tokio::time::timeout(Duration::from_secs(30), w).await.expect("a writer did not stop").unwrap();
    }
    assert!(server.alive(), "the server exited");

    // Read the database directly.
    let pool = PgPool::connect(&pg.url()).await.unwrap();
    let acks = tally.acks.lock().unwrap().clone();
    let losses = verify(&pool, &acks).await;
    pool.close().await;

    let failures = tally.failures.lock().unwrap().clone();
    println!(
        "faults: writes acknowledged {}, 503s seen {}, faults injected {faults}, recoveries {recoveries} \
         (ready again after {recovery_times:?}), replays of writes whose answer was lost {}, slowest answer \
         while down {:?}, event listener connections {listens} (lost {lost}, listening again \
         within {relistened_after:?} of the last restart; long poll woken in {wake:?}), roster change under \
         load in {roster_change:?}, lockout index answering again after {index_recovered:?}, losses {}, failures {}, in {:?}",
        acks.len(),
        tally.unavailable.load(Ordering::SeqCst),
        tally.replayed.load(Ordering::SeqCst),
        *tally.slowest_while_down.lock().unwrap(),
        losses.len(),
        failures.len(),
        started.elapsed(),
    );
    assert!(failures.is_empty(), "requests answered what they must not:\n{}", failures.join("\n"));
    assert!(losses.is_empty(), "the database disagrees with the acknowledged writes:\n{}", losses.join("\n"));
    assert_eq!(recoveries, FAULTS);
    let panics = server.log_lines_containing("panicked");
    assert_eq!(panics, 0, "the server panicked");
}

/// Compares the database with the acknowledged writes and checks nothing is half-applied;
/// returns every discrepancy.
async fn verify(pool: &PgPool, acks: &[Ack]) -> Vec<String> {
    let mut problems = Vec::new();

    // Exactly the acknowledged writes: each writer retries a write with its key until it is
    // acknowledged, so anything more would be a duplicate and anything less a loss.
    let mut expected = acks.to_vec();
    expected.sort();
    let mut found: Vec<Ack> = Vec::new();
    let rows: Vec<(String, String)> =
        sqlx::query_as("select key, original_author from artifacts where team_id = $1")
            .bind(TEAM)
            .fetch_all(pool)
            .await
            .unwrap();
    found.extend(rows.into_iter().map(|(key, author)| Ack::Created { key, author }));
    let rows: Vec<(String, i32, String)> = sqlx::query_as(
        "select a.key, v.number, v.author from versions v join artifacts a on a.id = v.artifact_id
         where v.team_id = $1 and v.number > 1",
    )
    .bind(TEAM)
    .fetch_all(pool)
    .await
    .unwrap();
    found.extend(rows.into_iter().map(|(key, number, author)| Ack::Version { key, number, author }));
    let rows: Vec<(String, i32, String, String)> = sqlx::query_as(
        "select a.key, r.number, r.reviewer, r.verdict from reviews r join artifacts a on a.id = r.artifact_id
         where r.team_id = $1",
    )
    .bind(TEAM)
    .fetch_all(pool)
    .await
    .unwrap();
    found.extend(rows.into_iter().map(|(key, number, reviewer, verdict)| match verdict.as_str() {
        "approve" => Ack::Approved { key, number, reviewer },
        _ => Ack::Rejected { key, number, reviewer },
    }));
    let rows: Vec<(String, String)> = sqlx::query_as(
        "select a.key, s.agent_id from assignments s join artifacts a on a.id = s.artifact_id where s.team_id = $1",
    )
    .bind(TEAM)
    .fetch_all(pool)
    .await
    .unwrap();
    found.extend(rows.into_iter().map(|(key, agent)| Ack::Assigned { key, agent }));
    found.sort();
    for ack in &expected {
        if found.binary_search(ack).is_err() {
            problems.push(format!("lost: {ack:?}"));
        }
    }
    for row in &found {
        if expected.binary_search(row).is_err() {
            problems.push(format!("not acknowledged (or duplicated): {row:?}"));
        }
    }
    let mut deduped = found.clone();
    deduped.dedup();
    if deduped.len() != found.len() {
        problems.push(format!("{} duplicate rows", found.len() - deduped.len()));
    }

    // Nothing half-applied: each query lists what breaks an invariant.
    let checks: [(&str, &str); 9] = [
        (
            "a version without its event (artifact.created for 1, version.submitted after)",
            "select a.key || ' v' || v.number from versions v join artifacts a on a.id = v.artifact_id
             where (select count(*) from events e where e.team_id = v.team_id and e.artifact = a.key
                    and e.type = case when v.number = 1 then 'artifact.created' else 'version.submitted' end
                    and (e.data->>'version')::int = v.number) <> 1",
        ),
        (
            "a version event without its version",
            "select e.artifact || ' #' || e.seq from events e where e.type in ('artifact.created', 'version.submitted')
             and not exists (select 1 from versions v join artifacts a on a.id = v.artifact_id
                             where a.team_id = e.team_id and a.key = e.artifact and v.number = (e.data->>'version')::int)",
        ),
        (
            "a review without its event",
            "select a.key || ' v' || r.number || ' ' || r.reviewer from reviews r join artifacts a on a.id = r.artifact_id
             where (select count(*) from events e where e.team_id = r.team_id and e.artifact = a.key
                    and e.type = case r.verdict when 'approve' then 'review.approved' else 'review.rejected' end
                    and (e.data->>'version')::int = r.number and e.data->>'reviewer' = r.reviewer) <> 1",
        ),
        (
            "a review event without its review",
            "select e.artifact || ' #' || e.seq from events e where e.type in ('review.approved', 'review.rejected')
             and not exists (select 1 from reviews r join artifacts a on a.id = r.artifact_id
                             where a.team_id = e.team_id and a.key = e.artifact
                             and r.number = (e.data->>'version')::int and r.reviewer = e.data->>'reviewer')",
        ),
        (
            "an assignment without exactly one event (or an event without its assignment)",
            "select a.key from artifacts a
             where (select count(*) from assignments s where s.artifact_id = a.id)
                <> (select count(*) from events e where e.team_id = a.team_id and e.artifact = a.key
                    and e.type = 'assignment.created')",
        ),
        (
            "a rejection without the lockout of the version's author",
            "select a.key || ' v' || r.number from reviews r join artifacts a on a.id = r.artifact_id
             join versions v on v.artifact_id = r.artifact_id and v.number = r.number
             where r.verdict = 'reject'
             and not exists (select 1 from lockouts l where l.review_id = r.id and l.agent_id = v.author)",
        ),
        (
            "current_version is not the latest version",
            "select a.key from artifacts a
             where a.current_version <> (select max(v.number) from versions v where v.artifact_id = a.id)",
        ),
        (
            "an artifact whose state its history does not explain",
            "select a.key || ' ' || a.state from artifacts a
             where a.state <> case
               when exists (select 1 from reviews r where r.artifact_id = a.id and r.verdict = 'approve') then 'approved'
               when exists (select 1 from versions v where v.artifact_id = a.id and v.number = 2) then 'in_review'
               when exists (select 1 from assignments s where s.artifact_id = a.id) then 'in_revision'
               when exists (select 1 from reviews r where r.artifact_id = a.id) then 'changes_requested'
               else 'in_review' end
             or exists (select 1 from lockouts l where l.artifact_id = a.id and l.cleared_at is null)
                <> (exists (select 1 from reviews r where r.artifact_id = a.id and r.verdict = 'reject')
                    and not exists (select 1 from reviews r where r.artifact_id = a.id and r.verdict = 'approve'))
             or exists (select 1 from assignments s where s.artifact_id = a.id and s.ended_at is null)
                <> (a.state = 'in_revision')",
        ),
        (
            "event seqs not contiguous from 1 to the team's last_event_seq",
            "select t.team_id from team_seqs t
             where (select count(*) from events e where e.team_id = t.team_id) <> t.last_event_seq
             or coalesce((select max(seq) from events e where e.team_id = t.team_id), 0) <> t.last_event_seq
             or coalesce((select min(seq) from events e where e.team_id = t.team_id), 1) <> 1",
        ),
    ];
    for (what, query) in checks {
        let rows: Vec<String> = sqlx::query_scalar(query).fetch_all(pool).await.unwrap();
        for row in rows {
            problems.push(format!("{what}: {row}"));
        }
    }
    problems
}
