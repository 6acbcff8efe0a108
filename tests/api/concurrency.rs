//! R13 and R12 under real concurrency: conflicting requests fired at once, each on its own task
//! and its own database connection. Exactly one wins where the rules allow one, and the rules
//! still hold in the database afterwards.
//!
//! `#[sqlx::test]` runs on a current-thread runtime (sqlx 0.9's macro has no `flavor`), but every
//! request makes several database round trips, so the spawned tasks interleave at each one and
//! their transactions really do overlap in Postgres. The test pool holds only 5 connections;
//! [`race_team`] builds a wider one so that many transactions are open at the same moment.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use tokio::sync::Barrier;

use crate::common::Reply;
use crate::examples::Team;

/// Connections for one racing test: enough for many overlapping transactions, few enough that
/// a couple of tests in parallel stay far below Postgres' default limit of 100.
const CONNECTIONS: u32 = 16;

/// A [`Team`] (authors as given, reviewer `q`) on a pool of [`CONNECTIONS`] connections to the
/// test's database.
pub async fn race_team(pool: &PgPool, policy: Value, authors: &[&str]) -> Arc<Team> {
    let wide = PgPoolOptions::new()
        .max_connections(CONNECTIONS)
        .connect_with((*pool.connect_options()).clone())
        .await
        .expect("a wider pool to the test database");
    Arc::new(Team::new(wide, policy, authors).await)
}

/// Closes the wide pool so the test database can be dropped.
pub async fn done(t: Arc<Team>) {
    t.api.pool.close().await;
}

/// Fires `n` requests at once: each on its own task, all released together by a barrier.
/// The replies come back in call order.
async fn race<F, Fut>(t: &Arc<Team>, n: usize, call: F) -> Vec<Reply>
where
    F: Fn(Arc<Team>, usize) -> Fut,
    Fut: Future<Output = Reply> + Send + 'static,
{
    let barrier = Arc::new(Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let request = call(t.clone(), i);
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                request.await
            })
        })
        .collect();
    let mut replies = Vec::with_capacity(n);
    for task in tasks {
        replies.push(task.await.expect("request task"));
    }
    replies
}

/// `status` or `status code`, for tallies and messages.
fn outcome(reply: &Reply) -> String {
    match reply.code() {
        "" => reply.status.as_u16().to_string(),
        code => format!("{} {code}", reply.status.as_u16()),
    }
}

/// How many replies had each outcome.
fn tally(replies: &[Reply]) -> BTreeMap<String, usize> {
    let mut tally = BTreeMap::new();
    for reply in replies {
        *tally.entry(outcome(reply)).or_default() += 1;
    }
    tally
}

/// No reply may be a 5xx: a lock wait, deadlock or serialization failure is never the client's
/// problem to see.
#[track_caller]
fn assert_no_server_errors(replies: &[Reply]) {
    for reply in replies {
        assert!(!reply.status.is_server_error(), "a race surfaced as {}: {}", reply.status, reply.body);
    }
}

async fn scalar(pool: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// The rules, checked in the database after a race, for every artifact of team `t`.
async fn assert_invariants(pool: &PgPool) {
    // R5: at most one active assignment per artifact, and one exactly while in revision.
    let doubled = scalar(
        pool,
        "select count(*) from (select artifact_id from assignments where ended_at is null
         group by artifact_id having count(*) > 1) d",
    )
    .await;
    assert_eq!(doubled, 0, "an artifact has two active assignments");
    let mismatched = scalar(
        pool,
        "select count(*) from artifacts a
         where (a.state = 'in_revision')
            <> exists (select 1 from assignments s where s.artifact_id = a.id and s.ended_at is null)",
    )
    .await;
    assert_eq!(mismatched, 0, "an active assignment exists exactly while in revision");
    // Versions are numbered 1..n without gaps and the artifact points at the last one.
    let misnumbered = scalar(
        pool,
        "select count(*) from artifacts a
         where a.current_version <> (select max(number) from versions v where v.artifact_id = a.id)
            or a.current_version <> (select count(*) from versions v where v.artifact_id = a.id)",
    )
    .await;
    assert_eq!(misnumbered, 0, "current_version is max(versions.number) and numbers have no gaps");
    // R6 in hindsight: lockouts only clear at approval (which ends the cycle) or by a lift, so a
    // version crediting an agent that a rejection of an earlier version of the same cycle
    // locked out (and no lift freed) was written while that agent was locked out.
    let locked_credits = scalar(
        pool,
        "select count(*) from versions v
         join lateral (select v.author as agent
                       union all
                       select c.agent_id from version_contributors c
                       where c.artifact_id = v.artifact_id and c.number = v.number) credit on true
         join lockouts l on l.artifact_id = v.artifact_id and l.agent_id = credit.agent
                        and l.cycle = v.cycle and l.number < v.number
                        and l.cleared_by is distinct from 'lift'",
    )
    .await;
    assert_eq!(locked_credits, 0, "a version credits an agent locked out at the time");
    // R8: an approved artifact has no active lockout; R3: a version in review credits nobody
    // locked out.
    let approved_locked = scalar(
        pool,
        "select count(*) from artifacts a join lockouts l on l.artifact_id = a.id
         where a.state = 'approved' and l.cleared_at is null",
    )
    .await;
    assert_eq!(approved_locked, 0, "an approved artifact keeps a lockout");
    let in_review_locked = scalar(
        pool,
        "select count(*) from artifacts a
         join versions v on v.artifact_id = a.id and v.number = a.current_version
         join lockouts l on l.artifact_id = a.id and l.agent_id = v.author and l.cleared_at is null
         where a.state = 'in_review'",
    )
    .await;
    assert_eq!(in_review_locked, 0, "a version in review is by a locked-out author");
    // R2: a rejection decides a version, and so do `required_approvals` approvals.
    let overdecided = scalar(
        pool,
        "select count(*) from (
             select r.artifact_id, r.number,
                    count(*) filter (where r.verdict = 'reject') as rejections,
                    count(*) filter (where r.verdict = 'approve') as approvals,
                    max(t.required_approvals) as required
             from reviews r join teams t on t.id = r.team_id
             group by r.artifact_id, r.number) d
         where rejections > 1 or approvals > required or (rejections = 1 and approvals >= required)",
    )
    .await;
    assert_eq!(overdecided, 0, "a version took verdicts after it was decided");
    // R12: seqs are 1..=last_event_seq, each once.
    let seqs: Vec<i64> = sqlx::query_scalar("select seq from events where team_id = 't' order by seq")
        .fetch_all(pool)
        .await
        .unwrap();
    let last = scalar(pool, "select last_event_seq from team_seqs where team_id = 't'").await;
    assert_eq!(seqs, (1..=last).collect::<Vec<_>>(), "event seqs are contiguous up to last_event_seq");
}

async fn count_events(pool: &PgPool, kind: &str) -> i64 {
    sqlx::query_scalar("select count(*) from events where team_id = 't' and type = $1")
        .bind(kind)
        .fetch_one(pool)
        .await
        .unwrap()
}

fn reject_body(reviewer: &str) -> Value {
    json!({ "reviewer": reviewer, "verdict": "reject", "grounds": "quality",
            "reason": "error handling is missing", "remedy": { "action": "reassign" } })
}

/// R13's own example: of 50 simultaneous assignments of different eligible agents to one
/// rejected artifact, exactly one wins.
#[sqlx::test]
async fn fifty_simultaneous_assignments_one_wins(pool: PgPool) {
    let agents: Vec<String> = (0..50).map(|i| format!("r{i:02}")).collect();
    let mut authors = vec!["a"];
    authors.extend(agents.iter().map(String::as_str));
    let t = race_team(&pool, Value::Null, &authors).await;
    t.create("module", "a").await.expect(201, None);
    t.reject("module", 1, json!({ "action": "reassign" })).await.expect(201, None);
    assert_eq!(t.status("module").await["eligible_agents"].as_array().unwrap().len(), 50);

    let replies = race(&t, 50, |t, i| async move { t.assign("module", &format!("r{i:02}")).await }).await;

    assert_no_server_errors(&replies);
    let winners: Vec<&Reply> = replies.iter().filter(|r| r.status == 201).collect();
    assert_eq!(winners.len(), 1, "exactly one wins: {:?}", tally(&replies));
    for loser in replies.iter().filter(|r| r.status != 201) {
        loser.expect(409, Some("invalid_state"));
    }
    let winner = winners[0].body["assignment"]["agent"].as_str().unwrap().to_owned();
    let status = t.status("module").await;
    assert_eq!(status["state"], "in_revision");
    assert_eq!(status["assignment"]["agent"], winner.as_str());
    let active: Vec<String> = sqlx::query_scalar("select agent_id from assignments where ended_at is null")
        .fetch_all(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(active, std::slice::from_ref(&winner));
    assert_eq!(scalar(&t.api.pool, "select count(*) from assignments").await, 1);
    assert_eq!(count_events(&t.api.pool, "assignment.created").await, 1);
    let actor: String = sqlx::query_scalar("select actor from events where type = 'assignment.created'")
        .fetch_one(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(actor, winner);
    // The winner writes the revision; nobody else can.
    let other = if winner == "r00" { "r01" } else { "r00" };
    t.version("module", json!({ "author": other })).await.expect(409, Some("not_assignee"));
    t.version("module", json!({ "author": winner })).await.expect(201, None);
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// A reject and an approve of the same version at once, by two reviewers, on many artifacts so
/// both orders happen: one verdict decides, the other is `version_decided`, and the state is
/// the winner's.
#[sqlx::test]
async fn reject_and_approve_of_one_version_at_once(pool: PgPool) {
    let t = race_team(&pool, Value::Null, &["a", "b"]).await;
    t.api
        .agent("t", "q2", json!({ "roles": ["code-reviewer"], "can_review": true, "can_author": false }))
        .await;
    const ARTIFACTS: usize = 12;
    for k in 0..ARTIFACTS {
        t.create(&format!("m{k}"), "a").await.expect(201, None);
    }

    // Every artifact's reject and approve are in flight together.
    let replies = race(&t, 2 * ARTIFACTS, |t, i| async move {
        let key = format!("m{}", i / 2);
        if i % 2 == 0 {
            t.review(&key, 1, reject_body("q")).await
        } else {
            t.review(&key, 1, json!({ "reviewer": "q2", "verdict": "approve" })).await
        }
    })
    .await;

    assert_no_server_errors(&replies);
    let (mut rejected, mut approved) = (0, 0);
    for (k, pair) in replies.chunks(2).enumerate() {
        let (reject, approve) = (&pair[0], &pair[1]);
        let key = format!("m{k}");
        let status = t.status(&key).await;
        let reviews = status["current_version"]["reviews"].as_array().unwrap();
        assert_eq!(reviews.len(), 1, "{key}: one verdict recorded");
        match (reject.status.as_u16(), approve.status.as_u16()) {
            (201, _) => {
                approve.expect(409, Some("version_decided"));
                rejected += 1;
                assert_eq!(status["state"], "changes_requested");
                assert_eq!(status["lockouts"][0]["agent"], "a");
                assert_eq!(status["lockouts"].as_array().unwrap().len(), 1);
                assert_eq!(reviews[0]["verdict"], "reject");
            }
            (_, 201) => {
                reject.expect(409, Some("version_decided"));
                approved += 1;
                assert_eq!(status["state"], "approved");
                assert_eq!(status["lockouts"], json!([]));
                assert_eq!(reviews[0]["verdict"], "approve");
            }
            _ => panic!("{key}: neither verdict won: {} / {}", outcome(reject), outcome(approve)),
        }
    }
    eprintln!("reject vs approve: {rejected} rejections won, {approved} approvals won");
    // No lockout was ever written for an artifact the approval won.
    assert_eq!(scalar(&t.api.pool, "select count(*) from lockouts").await, rejected);
    assert_eq!(count_events(&t.api.pool, "review.rejected").await, rejected);
    assert_eq!(count_events(&t.api.pool, "review.approved").await, approved);
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// With `required_approvals: 2`, three reviewers approve at once: exactly two approvals count,
/// the third finds the version decided; and one reviewer's double submit is one verdict.
#[sqlx::test]
async fn approvals_at_once_stop_at_required_approvals(pool: PgPool) {
    let policy = json!({ "profile": "standard", "required_approvals": 2 });
    let t = race_team(&pool, policy, &["a"]).await;
    for r in ["q2", "q3"] {
        t.api.agent("t", r, json!({ "can_review": true, "can_author": false })).await;
    }
    t.create("module", "a").await.expect(201, None);
    t.create("twice", "a").await.expect(201, None);

    let reviewers = ["q", "q2", "q3"];
    let replies = race(&t, 3, |t, i| {
        let body = json!({ "reviewer": reviewers[i], "verdict": "approve" });
        async move { t.review("module", 1, body).await }
    })
    .await;
    assert_no_server_errors(&replies);
    assert_eq!(
        tally(&replies),
        BTreeMap::from([("201".into(), 2), ("409 version_decided".into(), 1)]),
        "two approvals close the version"
    );
    let status = t.status("module").await;
    assert_eq!(status["state"], "approved");
    assert_eq!(status["current_version"]["reviews"].as_array().unwrap().len(), 2);

    // The same reviewer twice at once: one verdict, one `duplicate_review`.
    let replies = race(&t, 2, |t, _| async move {
        t.review("twice", 1, json!({ "reviewer": "q", "verdict": "approve" })).await
    })
    .await;
    assert_no_server_errors(&replies);
    assert_eq!(tally(&replies), BTreeMap::from([("201".into(), 1), ("409 duplicate_review".into(), 1)]));
    assert_eq!(t.status("twice").await["state"], "in_review");
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// Two supersedes by the author at once, on many artifacts. A version request names no base
/// version, so the one that runs second supersedes the first one's version, which is legal (the
/// author of v2 is the author of the version under review): both win, as v2 and v3 in turn,
/// never two v2s and never a gap.
#[sqlx::test]
async fn two_supersedes_at_once_number_in_turn(pool: PgPool) {
    let t = race_team(&pool, Value::Null, &["a", "b"]).await;
    const ARTIFACTS: usize = 12;
    for k in 0..ARTIFACTS {
        t.create(&format!("m{k}"), "a").await.expect(201, None);
    }

    let replies = race(&t, 2 * ARTIFACTS, |t, i| async move {
        let body = json!({ "author": "a", "ref": format!("s{}", i % 2) });
        t.version(&format!("m{}", i / 2), body).await
    })
    .await;

    assert_no_server_errors(&replies);
    for (k, pair) in replies.chunks(2).enumerate() {
        let key = format!("m{k}");
        let numbers: BTreeSet<i64> =
            pair.iter().map(|r| r.expect(201, None)["number"].as_i64().unwrap()).collect();
        assert_eq!(numbers, BTreeSet::from([2, 3]), "{key}: distinct numbers, in turn");
        let status = t.status(&key).await;
        assert_eq!(status["state"], "in_review");
        assert_eq!(status["current_version"]["number"], 3);
        // Each reply describes the version stored under its number.
        for reply in pair {
            let n = reply.body["number"].as_i64().unwrap();
            let stored = t.api.get(&t.url(&format!("/artifacts/{key}/versions/{n}")), &t.coord).await;
            assert_eq!(stored.expect(200, None)["ref"], reply.body["ref"]);
        }
        // v2 is no longer current: a verdict on it is stale.
        t.approve(&key, 2).await.expect(409, Some("stale_version"));
    }
    let kinds: Vec<String> =
        sqlx::query_scalar("select distinct data->>'kind' from events where type = 'version.submitted'")
            .fetch_all(&t.api.pool)
            .await
            .unwrap();
    assert_eq!(kinds, ["supersede"]);
    assert_eq!(count_events(&t.api.pool, "version.submitted").await, 2 * ARTIFACTS as i64);
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// Ten creations of one key at once: one artifact, nine `artifact_exists`.
#[sqlx::test]
async fn creations_of_one_key_at_once(pool: PgPool) {
    let authors = ["a", "b", "c", "d", "e"];
    let t = race_team(&pool, Value::Null, &authors).await;

    let replies = race(&t, 10, |t, i| {
        let author = authors[i % 5];
        async move { t.create("module", author).await }
    })
    .await;

    assert_no_server_errors(&replies);
    let winners: Vec<&Reply> = replies.iter().filter(|r| r.status == 201).collect();
    assert_eq!(winners.len(), 1, "exactly one wins: {:?}", tally(&replies));
    for loser in replies.iter().filter(|r| r.status != 201) {
        loser.expect(409, Some("artifact_exists"));
    }
    let author = winners[0].body["current_version"]["author"].clone();
    let status = t.status("module").await;
    assert_eq!(status["current_version"]["author"], author);
    assert_eq!(status["original_author"], author);
    assert_eq!(scalar(&t.api.pool, "select count(*) from artifacts").await, 1);
    assert_eq!(scalar(&t.api.pool, "select count(*) from versions").await, 1);
    assert_eq!(count_events(&t.api.pool, "artifact.created").await, 1);
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// R12: writers commit concurrently, in any order their transactions allow, while a poller pages
/// through `GET /events?after=` seven at a time. The poller sees every event exactly once, in
/// seq order, with no gaps.
#[sqlx::test]
async fn a_poller_never_misses_an_event_under_concurrent_writers(pool: PgPool) {
    const WRITERS: usize = 8;
    const ARTIFACTS: usize = 10;
    let authors = ["a", "b", "c"];
    let t = race_team(&pool, Value::Null, &authors).await;
    // Setting up the team (its agents and tokens) wrote events too.
    let setup = scalar(&t.api.pool, "select count(*) from events where team_id = 't'").await;
    let finished = Arc::new(AtomicBool::new(false));

    let poller = {
        let t = t.clone();
        let finished = finished.clone();
        tokio::spawn(async move {
            let (mut after, mut seen, mut pages_while_writing) = (0i64, Vec::new(), 0);
            loop {
                // Read the flag first: if the writers were done before this page was asked
                // for, an empty page means the poller has caught up.
                let writers_done = finished.load(Ordering::SeqCst);
                let path = t.url(&format!("/events?after={after}&limit=7"));
                let page = t.api.get(&path, &t.coord).await.expect(200, None).clone();
                let items = page["items"].as_array().unwrap();
                assert!(items.len() <= 7);
                for item in items {
                    let seq = item["seq"].as_i64().unwrap();
                    assert!(seq > after, "seq {seq} after {after}: out of order or repeated");
                    assert_eq!(seq, after + 1, "seq {seq} skips past {after}: an event was missed");
                    after = seq;
                    seen.push(seq);
                }
                assert_eq!(page["next_after"], after);
                if !items.is_empty() && !writers_done {
                    pages_while_writing += 1;
                }
                if items.is_empty() {
                    if writers_done {
                        return (seen, pages_while_writing);
                    }
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
        })
    };

    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let t = t.clone();
            tokio::spawn(async move {
                for j in 0..ARTIFACTS {
                    let key = format!("w{w}-{j}");
                    let author = authors[(w + j) % 3];
                    let reviser = authors[(w + j + 1) % 3];
                    t.create(&key, author).await.expect(201, None);
                    t.reject(&key, 1, json!({ "action": "reassign" })).await.expect(201, None);
                    t.assign(&key, reviser).await.expect(201, None);
                    t.version(&key, json!({ "author": reviser })).await.expect(201, None);
                    t.approve(&key, 2).await.expect(201, None);
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("writer");
    }
    finished.store(true, Ordering::SeqCst);
    let (seen, pages_while_writing) = poller.await.expect("poller");

    let count = scalar(&t.api.pool, "select count(*) from events where team_id = 't'").await;
    let last = scalar(&t.api.pool, "select last_event_seq from team_seqs where team_id = 't'").await;
    assert_eq!(count - setup, (WRITERS * ARTIFACTS * 5) as i64, "five events per artifact");
    assert_eq!(last, count);
    assert_eq!(seen, (1..=count).collect::<Vec<_>>());
    assert!(pages_while_writing > 0, "the poller read while the writers were writing");
    eprintln!("poller: {count} events, {pages_while_writing} non-empty pages read while writing");
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// R6's race: a rejection of v1 and its author's supersede at once. Either the rejection locks
/// the author out first and the supersede is `agent_locked_out`, or v2 lands first and the
/// verdict on v1 is `stale_version`; never a version by a locked-out author.
#[sqlx::test]
async fn rejection_racing_the_authors_supersede(pool: PgPool) {
    let t = race_team(&pool, Value::Null, &["a", "b"]).await;
    const ARTIFACTS: usize = 12;
    for k in 0..ARTIFACTS {
        t.create(&format!("m{k}"), "a").await.expect(201, None);
    }

    let replies = race(&t, 2 * ARTIFACTS, |t, i| async move {
        let key = format!("m{}", i / 2);
        if i % 2 == 0 {
            t.reject(&key, 1, json!({ "action": "reassign" })).await
        } else {
            t.version(&key, json!({ "author": "a", "ref": "r2" })).await
        }
    })
    .await;

    assert_no_server_errors(&replies);
    let (mut rejections, mut supersedes) = (0, 0);
    for (k, pair) in replies.chunks(2).enumerate() {
        let (reject, supersede) = (&pair[0], &pair[1]);
        let key = format!("m{k}");
        let status = t.status(&key).await;
        match (reject.status.as_u16(), supersede.status.as_u16()) {
            (201, _) => {
                supersede.expect(409, Some("agent_locked_out"));
                rejections += 1;
                assert_eq!(status["state"], "changes_requested");
                assert_eq!(status["current_version"]["number"], 1);
                assert_eq!(status["lockouts"][0]["agent"], "a");
            }
            (_, 201) => {
                reject.expect(409, Some("stale_version"));
                supersedes += 1;
                assert_eq!(status["state"], "in_review");
                assert_eq!(status["current_version"]["number"], 2);
                assert_eq!(status["lockouts"], json!([]));
            }
            _ => panic!("{key}: neither won: {} / {}", outcome(reject), outcome(supersede)),
        }
    }
    eprintln!("reject vs supersede: {rejections} rejections won, {supersedes} supersedes won");
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// R5/R6's other race: the coordinator releases the assignment while the assignee submits the
/// revision. Either the release wins and the version is `not_assignee`, or the version wins
/// (ending the assignment) and the release finds nothing to release (`invalid_state`).
#[sqlx::test]
async fn release_racing_the_assignees_revision(pool: PgPool) {
    let t = race_team(&pool, Value::Null, &["a", "b"]).await;
    const ARTIFACTS: usize = 12;
    for k in 0..ARTIFACTS {
        let key = format!("m{k}");
        t.create(&key, "a").await.expect(201, None);
        t.reject(&key, 1, json!({ "action": "reassign" })).await.expect(201, None);
        t.assign(&key, "b").await.expect(201, None);
    }

    let replies = race(&t, 2 * ARTIFACTS, |t, i| async move {
        let key = format!("m{}", i / 2);
        if i % 2 == 0 {
            let path = t.url(&format!("/artifacts/{key}/assignment"));
            t.api.delete(&path, &t.coord).await
        } else {
            t.version(&key, json!({ "author": "b", "ref": "r2" })).await
        }
    })
    .await;

    assert_no_server_errors(&replies);
    let (mut releases, mut revisions) = (0, 0);
    for (k, pair) in replies.chunks(2).enumerate() {
        let (release, revision) = (&pair[0], &pair[1]);
        let key = format!("m{k}");
        let status = t.status(&key).await;
        match (release.status.as_u16(), revision.status.as_u16()) {
            (200, _) => {
                revision.expect(409, Some("not_assignee"));
                releases += 1;
                assert_eq!(status["state"], "changes_requested");
                assert_eq!(status["assignment"], Value::Null);
                assert_eq!(status["current_version"]["number"], 1);
            }
            (_, 201) => {
                release.expect(409, Some("invalid_state"));
                revisions += 1;
                assert_eq!(status["state"], "in_review");
                assert_eq!(status["assignment"], Value::Null);
                assert_eq!(status["current_version"]["number"], 2);
                assert_eq!(status["current_version"]["author"], "b");
            }
            _ => panic!("{key}: neither won: {} / {}", outcome(release), outcome(revision)),
        }
    }
    eprintln!("release vs revision: {releases} releases won, {revisions} revisions won");
    let ended: BTreeMap<String, i64> = sqlx::query_as::<_, (String, i64)>(
        "select coalesce(ended_by, 'active'), count(*) from assignments group by 1",
    )
    .fetch_all(&t.api.pool)
    .await
    .unwrap()
    .into_iter()
    .collect();
    let expected: BTreeMap<String, i64> = [("released", releases), ("version", revisions)]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (k.to_owned(), n))
        .collect();
    assert_eq!(ended, expected, "every assignment ended once, by the winner");
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// What the service answers when Postgres aborts a transaction for a concurrent one.
fn answer(e: sqlx::Error) -> (u16, &'static str, String) {
    let sqlstate = match &e {
        sqlx::Error::Database(db) => db.code().map(|c| c.into_owned()).unwrap_or_default(),
        other => panic!("expected a database error, got {other}"),
    };
    let error = reviewlock::error::Error::from(e);
    (reviewlock::http::codes::status(error.code()).as_u16(), error.code().as_str(), sqlstate)
}

/// The service's writes lock in one order (the artifact row first, the team's seq row last) under
/// READ COMMITTED, so none of the races above can deadlock or fail to serialize. Should Postgres
/// ever abort a transaction anyway, the client gets 409 `conflict` (retry), never a 500: here
/// with a real deadlock and a real serialization failure.
#[sqlx::test]
async fn a_deadlock_or_serialization_failure_is_a_conflict_not_a_500(pool: PgPool) {
    sqlx::query("insert into teams (id) values ('one'), ('two')").execute(&pool).await.unwrap();
    let update = |id: &'static str| sqlx::query("update teams set display_name = 'x' where id = $1").bind(id);

    // A deadlock: each transaction holds one row and wants the other's.
    let mut first = pool.begin().await.unwrap();
    let mut second = pool.begin().await.unwrap();
    update("one").execute(&mut *first).await.unwrap();
    update("two").execute(&mut *second).await.unwrap();
    let (a, b) = tokio::join!(update("two").execute(&mut *first), update("one").execute(&mut *second));
    let aborted = match (a, b) {
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => e,
        (a, b) => panic!("expected exactly one deadlock victim: {a:?} / {b:?}"),
    };
    assert_eq!(answer(aborted), (409, "conflict", "40P01".into()));
    drop((first, second));

    // A serialization failure: a repeatable-read transaction updates a row changed since its
    // snapshot.
    let mut reader = pool.begin().await.unwrap();
    sqlx::query("set transaction isolation level repeatable read").execute(&mut *reader).await.unwrap();
    sqlx::query("select display_name from teams where id = 'one'").execute(&mut *reader).await.unwrap();
    sqlx::query("update teams set display_name = 'y' where id = 'one'").execute(&pool).await.unwrap();
    let failed = update("one").execute(&mut *reader).await.unwrap_err();
    assert_eq!(answer(failed), (409, "conflict", "40001".into()));
}

/// The team's events committed after `after` (every page of them), moving `after` past them.
async fn new_events(t: &Team, after: &mut i64) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let path = t.url(&format!("/events?after={after}&limit=500"));
        let page = t.api.get(&path, &t.coord).await.expect(200, None).clone();
        let items = page["items"].as_array().unwrap();
        if items.is_empty() {
            return events;
        }
        *after = page["next_after"].as_i64().unwrap();
        events.extend(items.iter().cloned());
    }
}

/// The seq of the one event of `kind` about `subject` (its artifact, else its actor).
#[track_caller]
fn seq_of(events: &[Value], kind: &str, subject: &str) -> i64 {
    let about = |e: &&Value| e["type"] == kind && (e["artifact"] == subject || e["actor"] == subject);
    let found: Vec<&Value> = events.iter().filter(about).collect();
    assert_eq!(found.len(), 1, "one {kind} event about {subject} among {events:?}");
    found[0]["seq"].as_i64().unwrap()
}

/// Deactivates `agent` through the API, as a coordinator would.
async fn set_active(t: &Team, agent: &str, active: bool) -> Reply {
    t.api.put(&t.url(&format!("/agents/{agent}")), &t.coord, json!({ "active": active })).await
}

/// R13 with the roster: an assignment decides that its agent is active, so a deactivation of
/// that agent at the same moment must not commit between that decision and the assignment's
/// commit. Events commit in seq order (R12), so either the assignment's event comes first, or
/// the assignment saw the agent inactive and was refused `invalid_agent`; an assignment whose
/// event follows the deactivation's was decided on a roster already replaced. Fifty rounds, each
/// with its own agent and artifact, so both orders happen.
#[sqlx::test]
async fn deactivation_racing_an_assignment_of_that_agent(pool: PgPool) {
    const ROUNDS: usize = 50;
    let t = race_team(&pool, Value::Null, &["a"]).await;
    for r in 0..ROUNDS {
        t.api.agent("t", &format!("x{r:02}"), json!({ "roles": ["engineer"] })).await;
        t.create(&format!("m{r:02}"), "a").await.expect(201, None);
        t.reject(&format!("m{r:02}"), 1, json!({ "action": "reassign" })).await.expect(201, None);
    }
    let mut after = 0;
    new_events(&t, &mut after).await;

    let (mut assigned, mut refused, mut late) = (0, 0, Vec::new());
    for r in 0..ROUNDS {
        let (key, agent) = (format!("m{r:02}"), format!("x{r:02}"));
        let replies = race(&t, 2, |t, i| {
            let (key, agent) = (key.clone(), agent.clone());
            async move {
                match i {
                    0 => set_active(&t, &agent, false).await,
                    _ => t.assign(&key, &agent).await,
                }
            }
        })
        .await;
        assert_no_server_errors(&replies);
        let (deactivation, assignment) = (&replies[0], &replies[1]);
        assert_eq!(deactivation.expect(200, None)["active"], false);
        let events = new_events(&t, &mut after).await;
        let deactivated = seq_of(&events, "agent.updated", &agent);
        let status = t.status(&key).await;
        if assignment.status == 201 {
            assigned += 1;
            assert_eq!(status["state"], "in_revision", "{key}: {status}");
            let assigned_at = seq_of(&events, "assignment.created", &key);
            if assigned_at > deactivated {
                late.push(format!(
                    "{key}: assignment.created #{assigned_at} after agent.updated #{deactivated}"
                ));
            }
        } else {
            assignment.expect(409, Some("invalid_agent"));
            refused += 1;
            assert_eq!(status["state"], "changes_requested", "{key}: {status}");
            assert_eq!(status["assignment"], Value::Null);
        }
    }
    eprintln!(
        "deactivation vs assignment: {assigned} assigned first, {refused} refused invalid_agent, \
         {} assigned after the deactivation",
        late.len()
    );
    assert!(
        late.is_empty(),
        "{} of {ROUNDS} assignments of a deactivated agent:\n{}",
        late.len(),
        late.join("\n")
    );
    assert_invariants(&t.api.pool).await;
    done(t).await;
}

/// R9 with the roster: a rejection decides whether anyone is left to revise. Authors a1, a2,
/// a3; a1 is locked out and a2's version is in review; Q rejects it while a3 is deactivated. If
/// the deactivation commits first, nobody is left: the rejection must deadlock (state
/// `deadlocked`, an open escalation, its event saying so). If the rejection commits first, a3
/// was still there: `changes_requested`. A rejection whose event follows the deactivation's
/// but that did not deadlock decided on a roster already replaced. Fifty rounds, a3 active
/// again before each.
#[sqlx::test]
async fn deactivation_racing_a_rejection_that_would_deadlock(pool: PgPool) {
    const ROUNDS: usize = 50;
    let t = race_team(&pool, Value::Null, &["a1", "a2", "a3"]).await;
    let mut after = 0;
    let (mut before, mut deadlocked, mut late) = (0, 0, Vec::new());
    for r in 0..ROUNDS {
        let key = format!("m{r:02}");
        set_active(&t, "a3", true).await.expect(200, None);
        t.create(&key, "a1").await.expect(201, None);
        t.reject(&key, 1, json!({ "action": "reassign" })).await.expect(201, None);
        t.assign(&key, "a2").await.expect(201, None);
        t.version(&key, json!({ "author": "a2" })).await.expect(201, None);
        new_events(&t, &mut after).await;

        let replies = race(&t, 2, |t, i| {
            let key = key.clone();
            async move {
                match i {
                    0 => set_active(&t, "a3", false).await,
                    _ => t.reject(&key, 2, json!({ "action": "reassign" })).await,
                }
            }
        })
        .await;
        assert_no_server_errors(&replies);
        let (deactivation, rejection) = (&replies[0], &replies[1]);
        assert_eq!(deactivation.expect(200, None)["active"], false);
        let state = rejection.expect(201, None)["artifact"]["state"].clone();
        let events = new_events(&t, &mut after).await;
        let deactivated = seq_of(&events, "agent.updated", "a3");
        let rejected = seq_of(&events, "review.rejected", &key);
        let event = events.iter().find(|e| e["seq"] == rejected).unwrap();
        let status = t.status(&key).await;
        assert_eq!(status["state"], state, "{key}: the rejection's reply is the state it left");
        let escalated = t.api.get(&t.url("/escalations"), &t.coord).await.expect(200, None)["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["artifact"] == key.as_str());
        if rejected < deactivated {
            before += 1;
            assert_eq!(state, "changes_requested", "{key}: a3 was active when Q rejected: {status}");
            let eligible = &rejection.body["artifact"]["eligible_agents"];
            assert_eq!(*eligible, json!(["a3"]), "{key}: the rejection left a3 to revise");
            assert!(!escalated, "{key}: no escalation while a3 could revise");
        } else if state == "deadlocked" {
            deadlocked += 1;
            assert_eq!(event["data"]["deadlocked"], true, "{key}: the event says it deadlocked: {event}");
            assert!(escalated, "{key}: a deadlock opens an escalation");
            assert_ne!(status["escalation"], Value::Null);
        } else {
            late.push(format!(
                "{key}: review.rejected #{rejected} after agent.updated #{deactivated} left it {state} \
                 with eligible agents {}",
                status["eligible_agents"]
            ));
        }
    }
    eprintln!(
        "deactivation vs rejection: {before} rejections first, {deadlocked} deadlocked after the \
         deactivation, {} not deadlocked after it",
        late.len()
    );
    assert!(
        late.is_empty(),
        "{} of {ROUNDS} rejections missed the deadlock:\n{}",
        late.len(),
        late.join("\n")
    );
    assert_invariants(&t.api.pool).await;
    done(t).await;
}
