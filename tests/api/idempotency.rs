//! `Idempotency-Key` (IETF httpapi draft): the first request with a key runs; a repeat from the
//! same token answers the stored status and body with `Idempotency-Replayed: true` and changes
//! nothing; the key with another request is 422 `idempotency_key_reused`; concurrent repeats
//! never run twice; expired keys run again and are purged.

use std::sync::Arc;
use std::time::Duration;

use axum::http::Method;
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use tokio::sync::Barrier;

use crate::common::{ADMIN, Reply};
use crate::errors::{invalid_fields, problem};
use crate::examples::Team;

/// Sends `body` to the team path `path` with `Idempotency-Key: key`.
async fn keyed(t: &Team, method: Method, path: &str, token: &str, body: Option<Value>, key: &str) -> Reply {
    t.api.send_with(method, &t.url(path), Some(token), body, &[("idempotency-key", key)]).await
}

/// Asserts that `first` ran (no replay header) and `again` is its replay: the same status,
/// content type and body bytes, with `Idempotency-Replayed: true`.
#[track_caller]
fn assert_replay(first: &Reply, again: &Reply) {
    assert!(first.headers.get("idempotency-replayed").is_none(), "the first request is not a replay");
    assert_eq!(again.status, first.status, "the replay answers the stored status; body: {}", again.body);
    assert_eq!(
        again.headers.get("idempotency-replayed").map(|v| v.to_str().unwrap()),
        Some("true"),
        "a replay says so"
    );
    assert_eq!(
        String::from_utf8_lossy(&again.bytes),
        String::from_utf8_lossy(&first.bytes),
        "a replay's body is byte-identical"
    );
    assert_eq!(again.headers.get("content-type"), first.headers.get("content-type"), "the same content type");
}

#[track_caller]
fn assert_not_replayed(reply: &Reply) {
    assert!(reply.headers.get("idempotency-replayed").is_none(), "not a replay: {reply:?}");
}

async fn revision(t: &Team, key: &str) -> i64 {
    t.status(key).await["revision"].as_i64().unwrap()
}

/// The key's stored row: (status, body).
async fn stored(pool: &PgPool, key: &str) -> Option<(i32, Vec<u8>)> {
    sqlx::query_as("select status, body from idempotency_keys where key = $1")
        .bind(key)
        .fetch_optional(pool)
        .await
        .unwrap()
}

#[sqlx::test]
async fn post_create_artifact_replays_and_changes_nothing(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let body = json!({ "key": "auth", "title": "Auth", "author": "a", "ref": "r1" });
    let first = keyed(&t, Method::POST, "/artifacts", &t.coord, Some(body.clone()), "create-1").await;
    assert_eq!(first.expect(201, None)["state"], "in_review");
    let (status, bytes) = stored(&t.api.pool, "create-1").await.expect("the response is stored");
    assert_eq!((status, bytes), (201, first.bytes.clone()), "stored as sent");
    let (before, rev) = (t.api.footprint().await, revision(&t, "auth").await);
    for _ in 0..2 {
        let again = keyed(&t, Method::POST, "/artifacts", &t.coord, Some(body.clone()), "create-1").await;
        assert_replay(&first, &again);
    }
    assert_eq!(t.api.footprint().await, before, "a replay writes nothing");
    assert_eq!(revision(&t, "auth").await, rev);
    // Without the key, the same request runs and is refused: the artifact exists.
    let fresh = t.api.post(&t.url("/artifacts"), &t.coord, body).await;
    problem(&fresh, 409, "artifact_exists");
}

#[sqlx::test]
async fn post_review_replays_and_changes_nothing(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    let body = json!({ "reviewer": "q", "verdict": "reject", "grounds": "quality", "reason": "no tests",
                       "remedy": { "action": "reassign" } });
    let path = "/artifacts/m/versions/1/reviews";
    let first = keyed(&t, Method::POST, path, &t.coord, Some(body.clone()), "review-1").await;
    assert_eq!(first.expect(201, None)["artifact"]["state"], "changes_requested");
    let (before, rev) = (t.api.footprint().await, revision(&t, "m").await);
    let again = keyed(&t, Method::POST, path, &t.coord, Some(body.clone()), "review-1").await;
    assert_replay(&first, &again);
    assert_eq!(t.api.footprint().await, before, "no second review, lockout or event");
    assert_eq!(revision(&t, "m").await, rev);
    // Run afresh, the same review would be refused.
    problem(&t.api.post(&t.url(path), &t.coord, body).await, 409, "version_decided");
}

#[sqlx::test]
async fn post_and_delete_assignment_replay_their_first_answer(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let path = "/artifacts/m/assignment";
    let assign = json!({ "agent": "b" });
    let assigned = keyed(&t, Method::POST, path, &t.coord, Some(assign.clone()), "assign-1").await;
    assert_eq!(assigned.expect(201, None)["state"], "in_revision");
    let before = t.api.footprint().await;
    assert_replay(
        &assigned,
        &keyed(&t, Method::POST, path, &t.coord, Some(assign.clone()), "assign-1").await,
    );
    assert_eq!(t.api.footprint().await, before, "no second assignment, no event");

    let released = keyed(&t, Method::DELETE, path, &t.coord, None, "release-1").await;
    assert_eq!(released.expect(200, None)["state"], "changes_requested");
    let (before, rev) = (t.api.footprint().await, revision(&t, "m").await);
    // Run afresh, a release would now be refused (nothing assigned), and an assignment would
    // run: the replays answer what the first requests answered.
    assert_replay(&released, &keyed(&t, Method::DELETE, path, &t.coord, None, "release-1").await);
    let again = keyed(&t, Method::POST, path, &t.coord, Some(assign), "assign-1").await;
    assert_replay(&assigned, &again);
    assert_eq!(again.body["state"], "in_revision", "the stored answer, not today's state");
    assert_eq!(t.api.footprint().await, before, "replays change nothing");
    assert_eq!(revision(&t, "m").await, rev);
    assert_eq!(t.status("m").await["state"], "changes_requested");
    problem(&t.api.delete(&t.url(path), &t.coord).await, 409, "invalid_state");
}

#[sqlx::test]
async fn put_agent_replays_the_created_answer(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let body = json!({ "display_name": "Xavier", "roles": ["engineer"] });
    let first = keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "agent-1").await;
    first.expect(201, None);
    let before = t.api.footprint().await;
    let again = keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "agent-1").await;
    assert_replay(&first, &again);
    assert_eq!(again.status, 201, "still 'created', though running it now would update (200)");
    assert_eq!(t.api.footprint().await, before, "no agent.updated event, no update");
    // Without the key it runs: an update.
    t.api.put(&t.url("/agents/x"), &t.coord, body).await.expect(200, None);
}

#[sqlx::test]
async fn delete_token_replays_204(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let created = t.api.post(&t.url("/tokens"), ADMIN, json!({ "name": "ci", "scope": "read" })).await;
    let id = created.expect(201, None)["id"].as_str().unwrap().to_owned();
    let path = format!("/tokens/{id}");
    let first = keyed(&t, Method::DELETE, &path, ADMIN, None, "revoke-1").await;
    first.expect(204, None);
    assert!(first.bytes.is_empty());
    let before = t.api.footprint().await;
    let again = keyed(&t, Method::DELETE, &path, ADMIN, None, "revoke-1").await;
    assert_replay(&first, &again);
    assert!(again.bytes.is_empty(), "204 has no body");
    assert_eq!(t.api.footprint().await, before, "no second token.revoked event");
    // Run afresh it would be 404: the token is gone.
    problem(&t.api.delete(&t.url(&path), ADMIN).await, 404, "not_found");
}

#[sqlx::test]
async fn the_same_key_with_another_request_is_422(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    let body = json!({ "roles": ["engineer"] });
    let first = keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "k").await;
    first.expect(201, None);
    let before = t.api.footprint().await;
    // Another body, another path, another method: each refused, nothing run.
    let other_body =
        keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(json!({ "roles": ["lead"] })), "k").await;
    problem(&other_body, 422, "idempotency_key_reused");
    let other_path = keyed(&t, Method::PUT, "/agents/y", &t.coord, Some(body.clone()), "k").await;
    problem(&other_path, 422, "idempotency_key_reused");
    let other_query = keyed(&t, Method::PUT, "/agents/x?z=1", &t.coord, Some(body.clone()), "k").await;
    problem(&other_query, 422, "idempotency_key_reused");
    assert_eq!(t.api.footprint().await, before, "refusals run nothing");
    assert_eq!(t.api.get(&t.url("/agents/y"), &t.coord).await.status, 404);
    assert_eq!(t.api.get(&t.url("/agents/x"), &t.coord).await.body["roles"], json!(["engineer"]));
    // The key still replays its own request.
    assert_replay(&first, &keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body), "k").await);

    // The method alone differs: POST then DELETE of one assignment path.
    t.create("m", "a").await.expect(201, None);
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let path = "/artifacts/m/assignment";
    keyed(&t, Method::POST, path, &t.coord, Some(json!({ "agent": "b" })), "m-key").await.expect(201, None);
    let before = t.api.footprint().await;
    problem(&keyed(&t, Method::DELETE, path, &t.coord, None, "m-key").await, 422, "idempotency_key_reused");
    assert_eq!(t.api.footprint().await, before, "the release did not run");
    assert_eq!(t.status("m").await["state"], "in_revision");
}

#[sqlx::test]
async fn keys_belong_to_their_token(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let other = t.api.token("t", "coordinator").await;
    let body = json!({ "display_name": "X" });
    keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "shared").await.expect(201, None);
    let before = t.api.footprint().await;
    // The same key and request from another token runs: an update, with its own event.
    let theirs = keyed(&t, Method::PUT, "/agents/x", &other, Some(body), "shared").await;
    theirs.expect(200, None);
    assert_not_replayed(&theirs);
    assert_ne!(t.api.footprint().await, before);
    // The same key with another request from another token is no reuse either.
    let diff = keyed(&t, Method::PUT, "/agents/y", ADMIN, Some(json!({})), "shared").await;
    diff.expect(201, None);
    assert_not_replayed(&diff);
    let owners: i64 =
        sqlx::query_scalar("select count(distinct token_id) from idempotency_keys where key = 'shared'")
            .fetch_one(&t.api.pool)
            .await
            .unwrap();
    assert_eq!(owners, 3, "one stored response per token");
}

/// A refused request stores nothing under its key: fixing the state and retrying with the same
/// key runs the request (observed behaviour: the claim rolls back with the refusal).
#[sqlx::test]
async fn a_refused_request_is_not_stored_and_may_be_retried(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let path = "/artifacts/m/assignment";
    let body = json!({ "agent": "a" });
    let before = t.api.footprint().await;
    let refused = keyed(&t, Method::POST, path, &t.coord, Some(body.clone()), "retry").await;
    problem(&refused, 409, "agent_locked_out");
    assert_eq!(stored(&t.api.pool, "retry").await, None, "a refusal stores no response");
    assert_eq!(t.api.footprint().await, before);
    // A repeat is refused again by the rule, not replayed.
    let again = keyed(&t, Method::POST, path, &t.coord, Some(body.clone()), "retry").await;
    problem(&again, 409, "agent_locked_out");
    assert_not_replayed(&again);
    // The user lifts the lockout; the retry with the same key now runs, and is then stored.
    let lift = t.url("/artifacts/m/lockouts/a/lift");
    t.api.post(&lift, &t.user, json!({ "reason": "the reviewer agreed" })).await.expect(200, None);
    let ran = keyed(&t, Method::POST, path, &t.coord, Some(body.clone()), "retry").await;
    assert_eq!(ran.expect(201, None)["assignment"]["agent"], "a");
    assert_not_replayed(&ran);
    assert_replay(&ran, &keyed(&t, Method::POST, path, &t.coord, Some(body), "retry").await);
}

#[sqlx::test]
async fn a_token_creation_replays_without_the_secret(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let body = json!({ "name": "ci", "scope": "read" });
    let first = keyed(&t, Method::POST, "/tokens", ADMIN, Some(body.clone()), "tok-1").await;
    let secret = first.expect(201, None)["token"].as_str().unwrap().to_owned();
    let before = t.api.footprint().await;
    let again = keyed(&t, Method::POST, "/tokens", ADMIN, Some(body), "tok-1").await;
    // 200 and the token without its secret (a 201 `CreatedToken` always carries one).
    assert!(again.expect(200, None).get("token").is_none(), "the secret is never stored");
    assert_eq!(again.headers["idempotency-replayed"], "true");
    let mut expected = first.body.clone();
    expected.as_object_mut().unwrap().remove("token");
    assert_eq!(again.body, expected, "everything but the secret as first answered");
    assert_eq!(t.api.footprint().await, before, "one token, one event");
    let (_, stored_body) = stored(&t.api.pool, "tok-1").await.unwrap();
    assert!(!String::from_utf8_lossy(&stored_body).contains(&secret), "the secret is not in the database");
    // The token created the first time works.
    t.api.get(&t.url("/artifacts"), &secret).await.expect(200, None);
}

/// Fires `n` copies of one request at once on a pool wide enough for all of them, each retried
/// while the first is in flight.
async fn race(t: &Arc<Team>, n: usize, method: Method, path: &str, body: Value, key: &str) -> Vec<Reply> {
    let barrier = Arc::new(Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let (t, barrier, method, body) = (t.clone(), barrier.clone(), method.clone(), body.clone());
            let (path, key) = (path.to_owned(), key.to_owned());
            tokio::spawn(async move {
                barrier.wait().await;
                // A repeat of a request still running is told to retry: it does, as a client would
                // (sooner than `Retry-After` says, to keep the test short).
                loop {
                    let reply = keyed(&t, method.clone(), &path, &t.coord, Some(body.clone()), &key).await;
                    if reply.code() != "idempotency_key_in_flight" {
                        return reply;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            })
        })
        .collect();
    let mut replies = Vec::new();
    for task in tasks {
        replies.push(task.await.expect("request task"));
    }
    replies
}

async fn wide_team(pool: &PgPool) -> Arc<Team> {
    let wide = PgPoolOptions::new()
        .max_connections(16)
        .connect_with((*pool.connect_options()).clone())
        .await
        .expect("a wider pool to the test database");
    Arc::new(Team::new(wide, Value::Null, &["a", "b"]).await)
}

/// Exactly one of the replies ran; every other one replays it.
#[track_caller]
fn one_ran_the_rest_replayed(replies: &[Reply], status: u16) {
    let ran: Vec<&Reply> =
        replies.iter().filter(|r| r.headers.get("idempotency-replayed").is_none()).collect();
    assert_eq!(
        ran.len(),
        1,
        "exactly one execution; statuses: {:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    ran[0].expect(status, None);
    for reply in replies {
        if !std::ptr::eq(reply, ran[0]) {
            assert_replay(ran[0], reply);
        }
    }
}

#[sqlx::test]
async fn concurrent_duplicates_run_once(pool: PgPool) {
    let t = wide_team(&pool).await;
    let (events, keys) = (t.api.footprint().await[0], t.api.footprint().await[16]);
    let body = json!({ "key": "auth", "title": "Auth", "author": "a" });
    let replies = race(&t, 10, Method::POST, "/artifacts", body, "same").await;
    one_ran_the_rest_replayed(&replies, 201);
    let created: i64 = sqlx::query_scalar("select count(*) from events where type = 'artifact.created'")
        .fetch_one(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(created, 1, "one event");
    let after = t.api.footprint().await;
    assert_eq!(
        (after[0], after[2], after[4], after[16]),
        (events + 1, 1, 1, keys + 1),
        "one artifact, one version"
    );

    // An update would succeed twice if it ran twice: it runs once.
    let before = t.api.footprint().await;
    let replies = race(&t, 10, Method::PUT, "/agents/b", json!({ "display_name": "Bee" }), "put").await;
    one_ran_the_rest_replayed(&replies, 200);
    assert_eq!(t.api.footprint().await[0], before[0] + 1, "one agent.updated event");
    t.api.pool.close().await;
}

#[sqlx::test]
async fn an_expired_key_runs_again_and_purge_deletes_expired_keys(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let body = json!({ "display_name": "X" });
    keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "old").await.expect(201, None);
    keyed(&t, Method::PUT, "/agents/y", &t.coord, Some(body.clone()), "young").await.expect(201, None);
    sqlx::query("update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old'")
        .execute(&t.api.pool)
        .await
        .unwrap();
    // Fresh keys expire a day after their request.
    let ttl: f64 = sqlx::query_scalar(
        "select extract(epoch from expires_at - created_at)::float8 from idempotency_keys where key = 'young'",
    )
    .fetch_one(&t.api.pool)
    .await
    .unwrap();
    assert_eq!(ttl, 86_400.0);
    // The expired key runs the request again (an update now) and stores the new answer.
    let events = t.api.footprint().await[0];
    let rerun = keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "old").await;
    rerun.expect(200, None);
    assert_not_replayed(&rerun);
    assert_eq!(t.api.footprint().await[0], events + 1);
    assert_replay(&rerun, &keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(body.clone()), "old").await);
    // An expired key may even carry another request.
    sqlx::query("update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old'")
        .execute(&t.api.pool)
        .await
        .unwrap();
    keyed(&t, Method::PUT, "/agents/z", &t.coord, Some(body), "old").await.expect(201, None);

    sqlx::query("update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old'")
        .execute(&t.api.pool)
        .await
        .unwrap();
    let purged = reviewlock::store::idempotency::purge_expired(&mut t.api.pool.acquire().await.unwrap())
        .await
        .unwrap();
    assert_eq!(purged, 1);
    let left: Vec<String> = sqlx::query_scalar("select key from idempotency_keys order by key")
        .fetch_all(&t.api.pool)
        .await
        .unwrap();
    assert_eq!(left, ["young"]);
    let again = reviewlock::store::idempotency::purge_expired(&mut t.api.pool.acquire().await.unwrap())
        .await
        .unwrap();
    assert_eq!(again, 0, "nothing else expired");
}

#[sqlx::test]
async fn a_bad_key_is_422_naming_the_header(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    let long = "k".repeat(256);
    let before = t.api.footprint().await;
    for key in ["", "   ", "\"\"", long.as_str(), "clé", "with space", "tab\there"] {
        let reply = keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(json!({})), key).await;
        assert_eq!(invalid_fields(&reply), ["Idempotency-Key"], "key {key:?}");
    }
    let reply = keyed(&t, Method::DELETE, "/artifacts/m/assignment", &t.coord, None, "").await;
    assert_eq!(invalid_fields(&reply), ["Idempotency-Key"]);
    assert_eq!(t.api.footprint().await, before, "nothing ran");
    // 255 visible ASCII characters are a key; a quoted key is the key without its quotes.
    let longest = "~".repeat(255);
    keyed(&t, Method::PUT, "/agents/x", &t.coord, Some(json!({})), &longest).await.expect(201, None);
    let quoted = keyed(&t, Method::PUT, "/agents/y", &t.coord, Some(json!({})), "\"q-1\"").await;
    quoted.expect(201, None);
    let bare = keyed(&t, Method::PUT, "/agents/y", &t.coord, Some(json!({})), "q-1").await;
    assert_replay(&quoted, &bare);
}

#[sqlx::test]
async fn get_ignores_the_header(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a"]).await;
    t.create("m", "a").await.expect(201, None);
    for key in ["g-1", "g-1", "", "clé"] {
        let reply = keyed(&t, Method::GET, "/artifacts/m", &t.coord, None, key).await;
        reply.expect(200, None);
        assert_not_replayed(&reply);
    }
    t.create("n", "a").await.expect(201, None);
    let list = keyed(&t, Method::GET, "/artifacts", &t.coord, None, "g-1").await;
    assert_eq!(list.expect(200, None)["items"].as_array().unwrap().len(), 2, "not a stored answer");
    assert_eq!(t.api.footprint().await[16], 0, "no key stored");
}

/// Holds the artifact's row the way a write does, so that a request to it claims its key and
/// then waits: a request in flight, for as long as the test keeps this transaction open.
async fn hold_artifact(t: &Team, key: &str) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut held = t.api.pool.begin().await.unwrap();
    sqlx::query("select 1 from artifacts where team_id = 't' and key = $1 for update")
        .bind(key)
        .execute(&mut *held)
        .await
        .unwrap();
    held
}

/// Waits until the key is claimed by a transaction still open (its row not yet visible).
async fn until_in_flight(t: &Team, key: &str) {
    for _ in 0..200 {
        let locks: i64 =
            // This test's database only: other tests' (a delivery worker's) are in the cluster's view.
            sqlx::query_scalar(
                "select count(*) from pg_locks where locktype = 'advisory' and granted
                 and database = (select oid from pg_database where datname = current_database())",
            )
                .fetch_one(&t.api.pool)
                .await
                .unwrap();
        if locks > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the first request with key {key} never claimed it");
}

/// A repeat that arrives while the first request with its key is still running answers at once
/// 409 `idempotency_key_in_flight` with `Retry-After`, holding no connection while the first
/// runs; retried after the first commits, it replays the first's answer; after the first was
/// refused (nothing stored), it runs itself.
#[sqlx::test]
async fn a_repeat_of_a_request_in_flight_answers_409_and_its_retry_replays(pool: PgPool) {
    let t = Arc::new(Team::new(pool, Value::Null, &["a", "b"]).await);
    t.create("m", "a").await.expect(201, None);
    t.reject("m", 1, json!({ "action": "reassign" })).await.expect(201, None);
    let assign = json!({ "agent": "b" });
    let path = "/artifacts/m/assignment";
    for commit in [true, false] {
        let key = format!("assign-{commit}");
        let mut held = hold_artifact(&t, "m").await;
        let first = tokio::spawn({
            let (t, body, key) = (t.clone(), assign.clone(), key.clone());
            async move { keyed(&t, Method::POST, path, &t.coord, Some(body), &key).await }
        });
        until_in_flight(&t, &key).await;
        let before = t.api.footprint().await;
        let repeat = keyed(&t, Method::POST, path, &t.coord, Some(assign.clone()), &key).await;
        problem(&repeat, 409, "idempotency_key_in_flight");
        assert_eq!(repeat.headers["retry-after"], "1");
        assert_eq!(t.api.footprint().await, before, "the repeat changed nothing");
        assert!(!first.is_finished(), "the first request is still running");
        if commit {
            held.commit().await.unwrap();
            let first = first.await.unwrap();
            first.expect(201, None);
            let retry = keyed(&t, Method::POST, path, &t.coord, Some(assign.clone()), &key).await;
            assert_replay(&first, &retry);
            // Back to changes_requested for the next round.
            t.api.delete(&t.url(path), &t.coord).await.expect(200, None);
        } else {
            // Meanwhile the artifact is approved: the first is refused and stores nothing, so a
            // retry runs itself.
            sqlx::query("update artifacts set state = 'approved' where team_id = 't' and key = 'm'")
                .execute(&mut *held)
                .await
                .unwrap();
            held.commit().await.unwrap();
            problem(&first.await.unwrap(), 409, "invalid_state");
            let retry = keyed(&t, Method::POST, path, &t.coord, Some(assign.clone()), &key).await;
            problem(&retry, 409, "invalid_state");
            assert_not_replayed(&retry);
            assert!(stored(&t.api.pool, &key).await.is_none(), "a refusal is not stored");
        }
    }
}

/// A retry of a write sent with `If-Match` replays its answer, though the tag it carries is
/// stale now (the first request changed the artifact): the stored answer comes first.
#[sqlx::test]
async fn a_retry_with_a_now_stale_if_match_replays(pool: PgPool) {
    let t = Team::new(pool, Value::Null, &["a", "b"]).await;
    t.create("m", "a").await.expect(201, None);
    let tag = t.api.get(&t.url("/artifacts/m"), &t.coord).await.headers["etag"].to_str().unwrap().to_owned();
    let body = json!({ "reviewer": "q", "verdict": "approve" });
    let path = t.url("/artifacts/m/versions/1/reviews");
    let headers = [("idempotency-key", "approve-1"), ("if-match", tag.as_str())];
    let first = t.api.send_with(Method::POST, &path, Some(&t.coord), Some(body.clone()), &headers).await;
    assert_eq!(first.expect(201, None)["artifact"]["state"], "approved");
    let before = t.api.footprint().await;
    let again = t.api.send_with(Method::POST, &path, Some(&t.coord), Some(body.clone()), &headers).await;
    assert_replay(&first, &again);
    assert_eq!(t.api.footprint().await, before);
    // With a new key the stale tag is refused.
    let headers = [("idempotency-key", "approve-2"), ("if-match", tag.as_str())];
    let fresh = t.api.send_with(Method::POST, &path, Some(&t.coord), Some(body), &headers).await;
    problem(&fresh, 412, "precondition_failed");
}

/// The configured admin token's keys belong to that token: after it is rotated
/// (`REVIEWLOCK_ADMIN_TOKEN` changed), the new one never replays what the old one was answered.
#[sqlx::test]
async fn a_rotated_admin_token_never_replays_its_predecessors_answers(pool: PgPool) {
    let t = Team::new(pool.clone(), Value::Null, &["a"]).await;
    let body = json!({ "display_name": "X" });
    let first = keyed(&t, Method::PUT, "/agents/x", ADMIN, Some(body.clone()), "rotate").await;
    first.expect(201, None);
    let again = keyed(&t, Method::PUT, "/agents/x", ADMIN, Some(body.clone()), "rotate").await;
    assert_replay(&first, &again);

    let rotated = "a-new-admin-token";
    let api = crate::common::Api::with_state(pool, |state| {
        state.auth.admin_token_hash = Some(Arc::new(reviewlock::auth::hash_secret(rotated)));
    });
    let headers = [("idempotency-key", "rotate")];
    let reply = api.send_with(Method::PUT, &t.url("/agents/x"), Some(rotated), Some(body), &headers).await;
    reply.expect(200, None);
    assert_not_replayed(&reply);
}

/// A key belongs to its token and to the team its request writes to: the server admin's key on
/// two teams names two requests, each replayed on its own team only.
#[sqlx::test]
async fn a_key_belongs_to_the_team_it_was_sent_to(pool: PgPool) {
    let api = crate::common::Api::new(pool);
    api.team("alpha", Value::Null).await;
    api.team("beta", Value::Null).await;
    let key = [("idempotency-key", "add-rev")];
    let body = json!({ "roles": ["tester"], "can_review": true, "can_author": false });
    let mut first = Vec::new();
    for team in ["alpha", "beta"] {
        let path = format!("/v1/teams/{team}/agents/rev");
        let reply = api.send_with(Method::PUT, &path, Some(ADMIN), Some(body.clone()), &key).await;
        reply.expect(201, None);
        assert_not_replayed(&reply);
        first.push((path, reply));
    }
    for (path, reply) in first {
        let again = api.send_with(Method::PUT, &path, Some(ADMIN), Some(body.clone()), &key).await;
        assert_replay(&reply, &again);
    }
    let teams: Vec<String> =
        sqlx::query_scalar("select team_id from idempotency_keys where key = 'add-rev' order by team_id")
            .fetch_all(&api.pool)
            .await
            .unwrap();
    assert_eq!(teams, ["alpha", "beta"]);
}
