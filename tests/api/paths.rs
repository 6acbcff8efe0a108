//! Files and the artifacts that cover them (R15, `src/app/globs.rs`): every spelling of a file is
//! that file, what cannot be placed in the repository is refused, an agent that may not author
//! writes only what no artifact covers, and creating or checking paths costs what the request's
//! own input costs, whoever sends it and however much the team has stored.
//!
//! The cost tests assert structure (who is refused before anything is compiled, one compiled
//! set per artifact, a cache that is never emptied) and print the CPU time they measure: the
//! handler runs on the test's thread, so the thread's CPU time is the service's work.

use std::sync::Arc;

use reviewlock::app::globs::{Coverage, CoverageStats};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::common::{Api, Reply};
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

/// The spellings of `src/web/a.rs` a hook may pass.
const SPELLINGS: [&str; 6] = [
    "src/web/a.rs",
    "./src/web/a.rs",
    "src//web/a.rs",
    "src/x/../web/a.rs",
    "src/./web/a.rs",
    "src/web/a.rs/",
];

/// Paths that cannot be placed in the repository, as JSON strings.
const OUTSIDE: [&str; 7] =
    ["/abs/src/web/a.rs", "../src/web/a.rs", "src/../../web/a.rs", "src\\web\\a.rs", "a\u{0}b", ".", "/"];

/// CPU time this thread has run, in milliseconds.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e6
}

/// Runs `f`, returning its result and the CPU milliseconds it took.
async fn measured<T>(f: impl AsyncFnOnce() -> T) -> (T, f64) {
    let start = cpu_ms();
    let out = f().await;
    (out, cpu_ms() - start)
}

async fn check(t: &Team, agent: &str, paths: Value) -> Reply {
    t.api.post(&t.url("/checks"), &t.coord, json!({ "agent": agent, "paths": paths })).await
}

/// Creates `key` by `a` with these globs and rejects it, so `a` is locked out of it.
async fn locked_out_of(t: &Team, key: &str, globs: Value) -> Value {
    let body = json!({ "key": key, "title": key, "author": "a", "paths": globs });
    let created = t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None).clone();
    t.reject(key, 1, json!({ "action": "reassign" })).await.expect(201, None);
    created
}

#[sqlx::test]
async fn every_spelling_of_a_file_is_that_file(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    locked_out_of(&t, "web", json!(["src/web/**"])).await;
    for spelling in SPELLINGS {
        let reply = check(&t, "a", json!(["README.md", spelling])).await;
        let result = reply.expect(200, None);
        assert_eq!(result["allowed"], false, "{spelling}");
        assert_eq!(result["denials"].as_array().unwrap().len(), 1, "{spelling}");
        assert_eq!(result["denials"][0]["code"], "agent_locked_out", "{spelling}");
        assert_eq!(result["denials"][0]["artifact"], "web", "{spelling}");
        assert!(result["denials"][0]["detail"].as_str().unwrap().contains("'src/web/a.rs'"), "{result}");
        // The file is the same file for an agent that is not locked out: allowed.
        let reply = check(&t, "b", json!([spelling])).await;
        assert_eq!(reply.answer(), json!({ "allowed": true, "agent": "b", "denials": [] }), "{spelling}");
    }
    // Nearby names are other files.
    for other in ["src/webx/a.rs", "src/web.rs", "x/src/web/a.rs", "src/x/web/a.rs"] {
        assert_eq!(check(&t, "a", json!([other])).await.expect(200, None)["allowed"], true, "{other}");
    }
    // What cannot be placed in the repository is a question the hook must ask again, relative
    // to the root: 422 naming the path, for every agent, locked out or not.
    for outside in OUTSIDE {
        for agent in ["a", "b"] {
            let reply = check(&t, agent, json!(["README.md", outside])).await;
            assert_eq!(invalid_fields(&reply), ["paths[1]"], "{outside:?}");
        }
    }
}

#[sqlx::test]
async fn an_artifacts_globs_are_normalised_when_it_is_created(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    // Each spelling of a glob covers what the plain one does, and is stored plain.
    let globs = json!(["./src/web//**", "api/x/../v1/*.rs", "docs/./guide/"]);
    let created = locked_out_of(&t, "web", globs).await;
    assert_eq!(created["paths"], json!(["src/web/**", "api/v1/*.rs", "docs/guide"]));
    assert_eq!(t.status("web").await["paths"], created["paths"]);
    for (path, allowed) in [
        ("src/web/a.rs", false),
        ("./src/web/deep/b.rs", false),
        ("api/v1/users.rs", false),
        ("api//v1/./users.rs", false),
        ("api/x/v1/users.rs", true),
        ("docs/guide", false),
        ("docs/guide/intro.md", true),
    ] {
        let reply = check(&t, "a", json!([path])).await;
        assert_eq!(reply.expect(200, None)["allowed"], allowed, "{path}");
    }
    // A glob that cannot be placed in the repository is refused, naming it, and nothing is created.
    let footprint = t.api.footprint().await;
    for (bad, why) in [
        ("/abs/src/**", "absolute"),
        ("../src/**", "leaves the repository"),
        ("src/../../x/**", "leaves the repository"),
        ("src/**/../a.rs", "after a wildcard"),
        ("src\\*.rs", "separator"),
        ("./", "root"),
        ("src/[", "not a valid glob"),
    ] {
        let body = json!({ "key": "bad", "title": "bad", "author": "a", "paths": ["src/ok/**", bad] });
        let reply = t.api.post(&t.url("/artifacts"), &t.coord, body).await;
        assert_eq!(invalid_fields(&reply), ["paths[1]"], "{bad}");
        assert!(reply.body["errors"][0]["message"].as_str().unwrap().contains(why), "{bad}: {}", reply.body);
    }
    // Two spellings of one glob are one glob listed twice.
    let body = json!({ "key": "bad", "title": "bad", "author": "a", "paths": ["src/**", "./src/**"] });
    assert_eq!(invalid_fields(&t.api.post(&t.url("/artifacts"), &t.coord, body).await), ["paths[1]"]);
    assert_eq!(t.api.footprint().await, footprint, "a refused artifact changes nothing");
}

#[sqlx::test]
async fn globs_stored_before_normalisation_match_as_normalised(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    locked_out_of(&t, "web", json!(["src/web/**"])).await;
    // As a row written before globs were normalised: an odd spelling and one that can match
    // nothing inside the repository.
    sqlx::query("update artifacts set paths = '{./src//web/**,/abs/**}' where key = 'web'")
        .execute(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(check(&t, "a", json!(["src/web/a.rs"])).await.expect(200, None)["allowed"], false);
    assert_eq!(check(&t, "a", json!(["abs/a.rs"])).await.expect(200, None)["allowed"], true);
}

#[sqlx::test]
async fn an_agent_that_may_not_author_writes_only_files_no_artifact_covers(pool: PgPool) {
    // `q` reviews and tests; it may not author.
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let body = json!({ "key": "web", "title": "web", "author": "a", "paths": ["src/web/**"] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    let body = json!({ "key": "old", "title": "old", "author": "a", "paths": ["src/old/**"] });
    t.api.post(&t.url("/artifacts"), &t.coord, body).await.expect(201, None);
    // Files outside every artifact are free.
    let reply = check(&t, "q", json!(["tests/web_test.rs", "README.md"])).await;
    assert_eq!(reply.answer(), json!({ "allowed": true, "agent": "q", "denials": [] }));
    // A covered file is a version of its artifact, which `q` may not write.
    let reply = check(&t, "q", json!(["tests/web_test.rs", "./src/web/a.rs", "src/old/b.rs"])).await;
    let result = reply.expect(200, None);
    assert_eq!(result["allowed"], false);
    let denials: Vec<(&str, &str)> = result["denials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["artifact"].as_str().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    assert_eq!(denials, [("old", "not_an_author"), ("web", "not_an_author")]);
    assert!(result["denials"][1]["detail"].as_str().unwrap().contains("'src/web/a.rs'"), "{result}");
    // An abandoned artifact takes no more writes: its files are free again.
    t.reject("old", 1, json!({ "action": "reassign" })).await.expect(201, None);
    t.assign("old", "b").await.expect(201, None);
    t.version("old", json!({ "author": "b" })).await.expect(201, None);
    t.reject("old", 2, json!({ "action": "reassign" })).await.expect(201, None);
    assert_eq!(t.status("old").await["state"], "deadlocked");
    let body = json!({ "action": "abandon", "reason": "superseded" });
    t.api.post(&t.url("/artifacts/old/resolution"), &t.user, body).await.expect(200, None);
    let reply = check(&t, "q", json!(["src/old/b.rs"])).await;
    assert_eq!(reply.expect(200, None)["allowed"], true);
    // Asked about the artifact itself, the answer is that of `POST …/versions`.
    let body = json!({ "agent": "q", "artifact": "web" });
    let reply = t.api.post(&t.url("/checks"), &t.coord, body).await;
    assert_eq!(reply.expect(200, None)["denials"][0]["code"], "invalid_agent");
    // An agent that is not an active member is refused whatever it would write.
    for agent in ["ghost", "retired"] {
        if agent == "retired" {
            t.api.agent("t", "retired", json!({ "active": false })).await;
        }
        let reply = check(&t, agent, json!(["README.md"])).await;
        let result = reply.expect(200, None);
        assert_eq!(result["denials"][0]["code"], "invalid_agent", "{agent}");
        assert_eq!(result["denials"][0]["artifact"], Value::Null, "{agent}");
    }
}

/// A body of many globs, about 250 KB, each costly to compile.
fn hostile_globs() -> Vec<String> {
    (0..4000).map(|i| format!("src/{{a,b,c,d}}/**/x[0-9]*y?{{e,f}}-{i:05}/**")).collect()
}

#[sqlx::test]
async fn creating_an_artifact_checks_who_then_limits_then_globs(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let api = &t.api;
    api.team("other", Value::Null).await;
    let other_read = api.token("other", "read").await;
    let own_read = api.token("t", "read").await;
    let footprint = api.footprint().await;
    let create = |paths: Vec<String>| json!({ "key": "big", "title": "big", "author": "a", "paths": paths });
    let url = t.url("/artifacts");
    // Another team's token: not found, before a glob is read.
    let (reply, ms) = measured(async || api.post(&url, &other_read, create(hostile_globs())).await).await;
    problem(&reply, 404, "not_found");
    eprintln!(
        "hostile load: POST /artifacts, 4000 globs (250 KB), another team's read token: {ms:.1} ms CPU"
    );
    // This team's read token: forbidden.
    problem(&api.post(&url, &own_read, create(hostile_globs())).await, 403, "forbidden");
    // A coordinator: the count, then the total size, then each length, then each glob.
    let (reply, ms) = measured(async || api.post(&url, &t.coord, create(hostile_globs())).await).await;
    assert_eq!(invalid_fields(&reply), ["paths"]);
    eprintln!("hostile load: POST /artifacts, 4000 globs (250 KB), coordinator: {ms:.1} ms CPU");
    let long = format!("src/{}", "{a,b}/".repeat(27_000));
    let (reply, ms) = measured(async || api.post(&url, &t.coord, create(vec![long])).await).await;
    assert_eq!(invalid_fields(&reply), ["paths"], "one 160 KB glob is over the total");
    eprintln!("hostile load: POST /artifacts, one 160 KB glob: {ms:.1} ms CPU, 422");
    let many: Vec<String> = (0..64).map(|i| format!("src/{i}/{}", "x".repeat(60))).collect();
    assert_eq!(invalid_fields(&api.post(&url, &t.coord, create(many)).await), ["paths"], "over 4096 bytes");
    let reply = api.post(&url, &t.coord, create(vec!["src/**".into(), "a".repeat(201)])).await;
    assert_eq!(invalid_fields(&reply), ["paths[1]"]);
    let globs = ["a/**", "b/*.rs", "c/{x,y}", "src/[", "d/**"].map(String::from).to_vec();
    let reply = api.post(&url, &t.coord, create(globs)).await;
    assert_eq!(invalid_fields(&reply), ["paths[3]"]);
    assert!(
        reply.body["errors"][0]["message"].as_str().unwrap().contains("not a valid glob"),
        "{}",
        reply.body
    );
    assert_eq!(api.footprint().await, footprint, "nothing was created");
    // At the limits: 64 globs, 4096 bytes.
    let most: Vec<String> = (0..64).map(|i| format!("src/{i:02}/{}", "x".repeat(57))).collect();
    assert_eq!(most.iter().map(String::len).sum::<usize>(), 4096);
    let (reply, ms) = measured(async || api.post(&url, &t.coord, create(most)).await).await;
    reply.expect(201, None);
    eprintln!("hostile load: POST /artifacts at the limits (64 globs, 4096 bytes): {ms:.1} ms CPU, 201");
}

/// Long distinct globs of artifact `i`: 64 of about 60 bytes.
fn artifact_globs(i: usize) -> Vec<String> {
    (0..64).map(|j| format!("services/module-{i:02}/generated/part-{j:02}/**/*.{{rs,toml,md}}")).collect()
}

/// 256 paths of 1000 bytes (the most a check takes) that no glob covers, and one that `m05` does.
fn longest_check() -> Vec<String> {
    let mut paths: Vec<String> = (0..256)
        .map(|i| {
            let mut p = format!("services/module-{i:03}/generated/deep/");
            while p.len() < 995 {
                p.push_str("dir/");
            }
            p.truncate(995);
            p.push_str("/a.rs");
            p
        })
        .collect();
    paths[255] = "services/module-05/generated/part-07/x/y.toml".into();
    paths
}

#[sqlx::test]
async fn a_check_costs_what_its_own_input_costs(pool: PgPool) {
    let mut t = Team::new(pool.clone(), Value::Null, &["a", "b"]).await;
    let mut coverage: Option<Arc<Coverage>> = None;
    t.api = Api::with_state(pool, |s| coverage = Some(s.coverage.clone()));
    let coverage = coverage.unwrap();
    // `a` is locked out of 70 artifacts of 64 distinct globs each: 4480 patterns.
    const ARTIFACTS: usize = 70;
    for i in 0..ARTIFACTS {
        locked_out_of(&t, &format!("m{i:02}"), json!(artifact_globs(i))).await;
    }
    let paths = longest_check();
    assert!(paths.iter().all(|p| p.len() <= 1000) && paths.len() == 256);
    let expected = json!([{ "artifact": "m05", "code": "agent_locked_out" }]);
    let denials = |reply: &Reply| -> Value {
        let result = reply.expect(200, None);
        let list = result["denials"].as_array().unwrap();
        list.iter().map(|d| json!({ "artifact": d["artifact"], "code": d["code"] })).collect()
    };
    let (reply, cold) = measured(async || check(&t, "a", json!(paths)).await).await;
    assert_eq!(denials(&reply), expected);
    let mut warm = Vec::new();
    for _ in 0..5 {
        let (reply, ms) = measured(async || check(&t, "a", json!(paths)).await).await;
        assert_eq!(denials(&reply), expected);
        warm.push(ms);
    }
    let mut one = Vec::new();
    for _ in 0..5 {
        let (reply, ms) = measured(async || check(&t, "a", json!(["services/module-05/x.rs"])).await).await;
        assert_eq!(reply.expect(200, None)["allowed"], true);
        one.push(ms);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!(
        "hostile load: POST /checks, agent locked out of {ARTIFACTS} artifacts x 64 globs, 256 paths x 1000 bytes: \
         first {cold:.1} ms CPU, then {:.1} ms mean of 5; a one-path check {:.2} ms mean of 5",
        mean(&warm),
        mean(&one)
    );
    // One compiled set per artifact, compiled once, never emptied.
    let stats = coverage.stats();
    assert_eq!(stats, CoverageStats { entries: ARTIFACTS, compiled: ARTIFACTS as u64, evicted: 0 });
}
