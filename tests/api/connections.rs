//! `store::Db`: a read that succeeds parks its connection for the next request (no ping back
//! into the pool) while nobody waits for one; anything else, or a connection released while a
//! request waits, goes back to the pool.

use std::sync::Arc;
use std::time::Duration;

use reviewlock::store::Db;
use reviewlock::store::listener::Feed;
use serde_json::{Value, json};
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

use crate::common::Api;

/// A pool of `max` connections to the test's database, waiting at most 5 s for one.
async fn db(pool: &PgPool, max: u32) -> Db {
    let options = (*pool.connect_options()).clone();
    let pool = PgPoolOptions::new().max_connections(max).acquire_timeout(Duration::from_secs(5));
    Db::new(pool.connect_with(options).await.unwrap())
}

async fn backend(db: &Db) -> i32 {
    db.read(async |conn| sqlx::query_scalar::<_, i32>("select pg_backend_pid()").fetch_one(conn).await)
        .await
        .unwrap()
}

#[sqlx::test]
async fn a_read_that_succeeds_parks_its_connection_for_the_next(pool: PgPool) {
    let db = db(&pool, 4).await;
    let first = backend(&db).await;
    assert_eq!(db.parked(), 1);
    assert_eq!(backend(&db).await, first, "the next read took the parked connection");
    assert_eq!(db.parked(), 1);

    // A failed read hands its connection back to the pool instead.
    let failed = db.read(async |conn| sqlx::query("select 1/0").execute(conn).await).await;
    assert!(failed.is_err());
    assert_eq!(db.parked(), 0);
    backend(&db).await;
    assert_eq!(db.parked(), 1);
    // Closing the pool does not wait for a parked connection: it goes back as the close starts.
    tokio::time::timeout(Duration::from_secs(10), db.close()).await.expect("the pool closed");
    assert_eq!(db.parked(), 0);
}

#[sqlx::test]
async fn a_cancelled_read_is_never_parked_and_the_next_read_is_answered(pool: PgPool) {
    let db = db(&pool, 4).await;
    let slow = db.read(async |conn| sqlx::query("select pg_sleep(2)").execute(conn).await);
    assert!(tokio::time::timeout(Duration::from_millis(200), slow).await.is_err(), "cancelled mid-query");
    assert_eq!(db.parked(), 0, "a connection dropped mid-query went back to the pool");
    let answered = db.read(async |conn| sqlx::query_scalar::<_, i32>("select 7").fetch_one(conn).await).await;
    assert_eq!(answered.unwrap(), 7);
    db.close().await;
}

#[sqlx::test]
async fn a_connection_is_parked_only_while_nobody_waits_for_one(pool: PgPool) {
    let db = db(&pool, 2).await;
    let write = db.begin().await.unwrap();
    // One connection left for two reads: the second waits, and gets the first's connection
    // rather than the first parking it.
    let read = || db.read(async |conn| sqlx::query("select pg_sleep(0.1)").execute(conn).await.map(drop));
    let (first, second) = tokio::join!(read(), read());
    first.unwrap();
    second.unwrap();
    assert_eq!(
        (db.parked(), db.waiting()),
        (1, 0),
        "the last read, with nobody waiting, parked its connection"
    );
    // A write takes the parked connection.
    let other = db.begin().await.unwrap();
    assert_eq!(db.parked(), 0);
    drop((write, other));

    // What must take from the pool itself (the event listener) gets the parked connections
    // handed back first: with a pool of one, parked, it is not left waiting.
    let single = self::db(&pool, 1).await;
    backend(&single).await;
    assert_eq!(single.parked(), 1);
    let taken =
        tokio::time::timeout(Duration::from_secs(10), single.from_pool(async |pool| pool.acquire().await))
            .await
            .expect("the parked connection went back to the pool");
    assert!(taken.is_ok());
    assert_eq!((single.parked(), single.waiting()), (0, 0));
}

/// Waits until `condition` (a query of one boolean) holds; at most 10 s.
async fn until(pool: &PgPool, condition: String) {
    for _ in 0..200 {
        let holds: bool =
            sqlx::query_scalar(sqlx::AssertSqlSafe(condition.clone())).fetch_one(pool).await.unwrap();
        if holds {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never held: {condition}");
}

/// What a user sees of a pool of `max` connections with the event listener holding one and
/// `writes` writes blocked on a row lock holding one each, when `readers` light reads arrive
/// at once, one more than the connections left: the statuses of the reads.
async fn reads_beside_blocked_writes(pool: PgPool, max: u32, writes: usize, readers: usize) -> Vec<u16> {
    let options = (*pool.connect_options()).clone();
    let small = PgPoolOptions::new()
        .max_connections(max)
        .acquire_timeout(Duration::from_secs(2))
        .connect_with(options)
        .await
        .unwrap();
    let api = Api::with_state(pool.clone(), |s| {
        s.pool = Db::new(small);
        s.feed = Feed::new(s.pool.clone());
        s.auth.tokens = Arc::new(reviewlock::app::authenticate::TokenCache::new(Duration::from_secs(600)));
    });
    api.team("t", Value::Null).await;
    api.agent("t", "a", json!({ "roles": ["engineer"] })).await;
    api.agent("t", "q", json!({ "roles": ["tester"], "can_review": true, "can_author": false })).await;
    let coord = api.token("t", "coordinator").await;
    let artifact = json!({ "key": "auth", "title": "Auth", "author": "a" });
    api.post("/v1/teams/t/artifacts", &coord, artifact).await.expect(201, None);
    // The token is cached from now on: a read is one connection, one statement.
    api.get("/v1/teams/t/artifacts/auth", &coord).await.expect(200, None);
    api.state.feed.start();
    let listening = "select count(*) >= 1 from pg_stat_activity
                     where datname = current_database() and query like 'LISTEN%'";
    until(&pool, listening.into()).await;

    // The artifact's row, locked from outside the service's pool, blocks every review of it.
    let mut outside = pool.begin().await.unwrap();
    sqlx::query("select 1 from artifacts where key = 'auth' for update")
        .execute(&mut *outside)
        .await
        .unwrap();
    let review = json!({ "reviewer": "q", "verdict": "approve" });
    let path = "/v1/teams/t/artifacts/auth/versions/1/reviews";
    let blocked = futures_util::future::join_all((0..writes).map(|_| api.post(path, &coord, review.clone())));
    let reads = async {
        let blocked = format!(
            "select count(*) >= {writes} from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'"
        );
        until(&pool, blocked).await;
        let reads = (0..readers).map(|_| api.get("/v1/teams/t/artifacts/auth", &coord));
        let statuses: Vec<u16> =
            futures_util::future::join_all(reads).await.iter().map(|r| r.status.as_u16()).collect();
        outside.rollback().await.unwrap();
        statuses
    };
    let (_, statuses) = tokio::join!(blocked, reads);
    let answered = statuses.iter().filter(|s| **s == 200).count();
    let unavailable = statuses.iter().filter(|s| **s == 503).count();
    eprintln!(
        "hostile load: pool {max}, the listener and {writes} blocked writes holding a connection each, {readers} reads at once: \
         {answered} answered 200, {unavailable} answered 503"
    );
    statuses
}

#[sqlx::test]
async fn reads_waiting_beside_blocked_writes_get_the_connections_other_reads_release(pool: PgPool) {
    let statuses = reads_beside_blocked_writes(pool, 4, 1, 3).await;
    assert_eq!(statuses, [200; 3], "no read waits out the acquire timeout");
}

#[sqlx::test]
async fn reads_waiting_beside_blocked_writes_at_the_default_pool_size(pool: PgPool) {
    let statuses = reads_beside_blocked_writes(pool, 16, 7, 9).await;
    assert_eq!(statuses, [200; 9], "no read waits out the acquire timeout");
}
