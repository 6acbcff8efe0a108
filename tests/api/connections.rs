//! `store::Db`: a read that succeeds parks its connection for the next request (no ping back
//! into the pool); anything else hands it back to the pool, and at most half the pool is parked.

use std::time::Duration;

use reviewlock::store::Db;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// A pool of `max` connections to the test's database.
async fn db(pool: &PgPool, max: u32) -> Db {
    let options = (*pool.connect_options()).clone();
    Db::new(PgPoolOptions::new().max_connections(max).connect_with(options).await.unwrap())
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
async fn at_most_half_the_pool_is_parked_and_the_rest_stays_with_the_pool(pool: PgPool) {
    let db = db(&pool, 4).await;
    // Four reads at once, each on its own connection, all succeeding.
    let read = || db.read(async |conn| sqlx::query("select pg_sleep(0.2)").execute(conn).await);
    let (a, b, c, d) = tokio::join!(read(), read(), read(), read());
    assert!(a.is_ok() && b.is_ok() && c.is_ok() && d.is_ok());
    assert_eq!(db.parked(), 2, "half of the four");
    // Writes take parked connections too, and the pool's own users still find room.
    let mut tx = db.begin().await.unwrap();
    assert_eq!(db.parked(), 1);
    sqlx::query("select 1").execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::query("select 1").execute(&*db).await.unwrap();
    db.close().await;
}
