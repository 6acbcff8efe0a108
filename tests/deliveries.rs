//! Deliveries across real `reviewlock serve` processes on one database (docs/webhooks.md):
//!
//! - [`a_replica_killed_mid_delivery_leaves_the_event_to_another_with_the_same_id`]: `kill -9`
//!   while the receiver holds the request; another replica sends it again, same `webhook-id`.
//! - [`three_replicas_send_each_event_once_in_order_never_two_at_once`]: events written through
//!   three replicas, two subscriptions: each event arrives once, in seq order, and no receiver
//!   ever has two requests of its subscription in flight.

mod process;

#[path = "api/receiver.rs"]
mod receiver;

use std::time::Duration;

use hyper::Method;
use process::{Serve, Server, database_url};
use receiver::{Receiver, seq, verify_signatures};
use serde_json::{Value, json};
use sqlx::PgPool;

const ADMIN: &str = "deliveries-admin-token";
const SECRET_KEY: &str = "cmV2aWV3bG9jayB0ZXN0IGtleSwgMzIgYnl0ZXMgISE=";
const WAIT: Duration = Duration::from_secs(60);

async fn start(database: &str) -> Server {
    Serve::new(database, ADMIN)
        .envs(&[
            ("REVIEWLOCK_RATE_LIMIT", "0"),
            ("REVIEWLOCK_DB_MAX_CONNECTIONS", "8"),
            ("REVIEWLOCK_SECRET_KEY", SECRET_KEY),
            ("REVIEWLOCK_WEBHOOK_ALLOW_HTTP", "true"),
            ("REVIEWLOCK_WEBHOOK_ALLOW_PRIVATE", "true"),
            ("RUST_LOG", "warn"),
        ])
        .start()
        .await
}

async fn call(server: &Server, method: Method, path: &str, body: Value) -> Value {
    let body = if body.is_null() { None } else { Some(body) };
    server.client().request(method, path).bearer(ADMIN).json(body).must().await.body
}

/// The team `t` with the author `a`.
async fn team(server: &Server) {
    call(server, Method::PUT, "/v1/teams/t", json!({})).await;
    call(server, Method::PUT, "/v1/teams/t/agents/a", json!({ "roles": ["engineer"] })).await;
}

/// A subscription to the artifacts' events.
async fn subscribe(server: &Server, receiver: &Receiver) -> Value {
    let body = json!({ "url": receiver.url, "events": ["artifact.*"] });
    call(server, Method::POST, "/v1/teams/t/webhooks", body).await
}

async fn create(server: &Server, key: &str) -> i64 {
    let body = json!({ "key": key, "title": key, "author": "a" });
    let reply =
        server.client().request(Method::POST, "/v1/teams/t/artifacts").bearer(ADMIN).json(body).must().await;
    reply.header("reviewlock-seq").parse().unwrap()
}

#[sqlx::test]
async fn a_replica_killed_mid_delivery_leaves_the_event_to_another_with_the_same_id(pool: PgPool) {
    let database = database_url(&pool);
    let mut first = start(&database).await;
    team(&first).await;
    let receiver = Receiver::start().await;
    receiver.answer(0);
    let hook = subscribe(&first, &receiver).await;
    let seq_created = create(&first, "auth").await;
    let held = receiver.until(WAIT, |r| !r.is_empty()).await;
    assert_eq!(seq(&held[0]), seq_created);

    // Killed while the receiver holds its request: nothing recorded it as delivered.
    first.kill();
    receiver.answer(204);
    let second = start(&database).await;
    let got = receiver.until(WAIT, |r| r.iter().any(|d| d.answered == 204)).await;
    let again = got.iter().find(|d| d.answered == 204).unwrap();
    assert_eq!(seq(again), seq_created);
    assert_eq!(
        again.header("webhook-id"),
        held[0].header("webhook-id"),
        "redelivered with the same webhook-id"
    );
    verify_signatures(hook["secret"].as_str().unwrap(), &got[1..]);
    let id = hook["id"].as_str().unwrap();
    let started = std::time::Instant::now();
    // The receiver sees the request before the replica records its answer.
    loop {
        let state = call(&second, Method::GET, &format!("/v1/teams/t/webhooks/{id}"), Value::Null).await;
        if state["delivery"]["cursor"] == seq_created {
            break;
        }
        assert!(started.elapsed() < WAIT, "the cursor did not move past the event: {state}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[sqlx::test]
async fn three_replicas_send_each_event_once_in_order_never_two_at_once(pool: PgPool) {
    let database = database_url(&pool);
    let replicas = [start(&database).await, start(&database).await, start(&database).await];
    team(&replicas[0]).await;
    let receivers = [Receiver::start().await, Receiver::start().await];
    let mut secrets = Vec::new();
    for (receiver, replica) in receivers.iter().zip(&replicas) {
        // Slow enough that a second sender would overlap with the first.
        receiver.delay(Duration::from_millis(25));
        secrets.push(subscribe(replica, receiver).await["secret"].as_str().unwrap().to_owned());
    }
    let mut seqs = Vec::new();
    for n in 0..30 {
        seqs.push(create(&replicas[n % 3], &format!("art-{n}")).await);
    }
    seqs.sort();
    for (receiver, secret) in receivers.iter().zip(&secrets) {
        receiver.until(WAIT, |r| r.len() >= seqs.len()).await;
        // A moment more: anything sent twice would arrive now.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let got = receiver.received();
        assert_eq!(got.iter().map(seq).collect::<Vec<_>>(), seqs, "each event once, in seq order");
        assert_eq!(receiver.max_in_flight(), 1, "two replicas sent to one subscription at once");
        verify_signatures(secret, &got);
    }
}
