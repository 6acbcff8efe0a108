//! Hostile load on a real `reviewlock serve` process over loopback: sockets that never send a
//! request, or send it a byte at a time, and more of them than the connection limit. The server
//! must close them in time and go on answering `/healthz` meanwhile.
//!
//! Run with `--nocapture` to see the figures each test prints.

mod process;

use std::time::{Duration, Instant};

use process::{Serve, Server, database_url};
use sqlx::PgPool;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const ADMIN: &str = "hostile-admin-token";

async fn start(pool: &PgPool, env: &[(&str, &str)]) -> Server {
    Serve::new(&database_url(pool), ADMIN)
        .envs(&[("REVIEWLOCK_DB_MAX_CONNECTIONS", "4"), ("RUST_LOG", "warn")])
        .envs(env)
        .start()
        .await
}

async fn connect(server: &Server) -> TcpStream {
    TcpStream::connect(("127.0.0.1", server.port)).await.unwrap()
}

/// Waits until the server closes the socket (end of stream or reset); how long that took from
/// `since`, or `None` if it is still open after `within`.
async fn closed_by_server(mut socket: TcpStream, since: Instant, within: Duration) -> Option<Duration> {
    let mut buf = [0u8; 1024];
    let read = async {
        loop {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return since.elapsed(),
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, read).await.ok()
}

/// `/healthz` on a new connection `n` times: the latencies, sorted; panics on any other answer.
async fn healthz(server: &Server, n: usize) -> Vec<Duration> {
    let mut latencies = Vec::new();
    for _ in 0..n {
        let reply = server.client().timeout(Duration::from_secs(2)).get("/healthz").send().await;
        let reply = reply.expect("/healthz answered");
        assert_eq!(reply.status, 200);
        latencies.push(reply.elapsed);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    latencies.sort();
    latencies
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[sqlx::test]
async fn idle_and_slow_header_sockets_are_closed_and_healthz_answers_meanwhile(pool: PgPool) {
    let server = start(&pool, &[("REVIEWLOCK_HEADER_READ_TIMEOUT", "1s")]).await;
    const IDLE: usize = 200;
    const SLOW: usize = 20;
    let opened = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..IDLE {
        idle.push(connect(&server).await);
    }
    // Slow headers: one byte every 200 ms, never finishing.
    let mut slow = Vec::new();
    for _ in 0..SLOW {
        let mut socket = connect(&server).await;
        slow.push(tokio::spawn(async move {
            let started = Instant::now();
            for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".iter().cycle() {
                if socket.write_all(&[*byte]).await.is_err() {
                    return Some(started.elapsed());
                }
                let mut buf = [0u8; 64];
                if let Ok(Ok(0) | Err(_)) =
                    tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buf)).await
                {
                    return Some(started.elapsed());
                }
                if started.elapsed() > Duration::from_secs(10) {
                    return None;
                }
            }
            None
        }));
    }
    let latencies = healthz(&server, 20).await;

    let closes = futures_util::future::join_all(
        idle.into_iter().map(|s| closed_by_server(s, opened, Duration::from_secs(10))),
    )
    .await;
    let idle_closed: Vec<Duration> = closes.into_iter().flatten().collect();
    let mut slow_closed = Vec::new();
    for task in slow {
        slow_closed.extend(task.await.unwrap());
    }
    assert_eq!(idle_closed.len(), IDLE, "every idle socket was closed");
    assert_eq!(slow_closed.len(), SLOW, "every slow-header socket was closed");
    let last_idle = idle_closed.iter().max().unwrap();
    let last_slow = slow_closed.iter().max().unwrap();
    assert!(*last_idle < Duration::from_secs(4) && *last_slow < Duration::from_secs(4));
    eprintln!(
        "hostile load: idle sockets: {IDLE} opened, all closed within {} (header read timeout 1 s); slow-header sockets \
         (1 byte / 200 ms): {SLOW}, all closed within {}; /healthz meanwhile: 20 answered, p50 {}, max {}",
        ms(*last_idle),
        ms(*last_slow),
        ms(latencies[latencies.len() / 2]),
        ms(*latencies.last().unwrap()),
    );
}

#[sqlx::test]
async fn past_the_connection_limit_idle_sockets_make_room_and_healthz_answers(pool: PgPool) {
    let server =
        start(&pool, &[("REVIEWLOCK_MAX_CONNECTIONS", "50"), ("REVIEWLOCK_HEADER_READ_TIMEOUT", "60s")])
            .await;
    const IDLE: usize = 300;
    let mut idle = Vec::new();
    for _ in 0..IDLE {
        idle.push(connect(&server).await);
    }
    let latencies = healthz(&server, 20).await;
    let opened = Instant::now();
    let closes = futures_util::future::join_all(
        idle.into_iter().map(|s| closed_by_server(s, opened, Duration::from_secs(1))),
    )
    .await;
    let closed = closes.iter().filter(|c| c.is_some()).count();
    // At most 50 stay open, fewer as the /healthz probes took their places.
    assert!(closed >= IDLE - 50, "only {closed} of {IDLE} idle sockets were closed");
    eprintln!(
        "hostile load: connection limit 50: {IDLE} idle sockets opened, {closed} closed to make room; /healthz meanwhile: \
         20 answered, p50 {}, max {}",
        ms(latencies[latencies.len() / 2]),
        ms(*latencies.last().unwrap()),
    );
}

#[sqlx::test]
async fn a_request_hyper_cannot_parse_is_400_without_a_body(pool: PgPool) {
    // hyper answers parse errors itself, with a status line and no body (docs/deployment.md);
    // the server goes on answering.
    let server = start(&pool, &[]).await;
    let mut socket = connect(&server).await;
    socket.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fold: a\r\n b\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await.unwrap().unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    healthz(&server, 1).await;
    eprintln!("hostile load: obs-fold header: {}", answer.lines().next().unwrap_or_default());
}
