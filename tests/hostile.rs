//! Hostile load on a real `reviewlock serve` process over loopback: sockets that never send a
//! request, or send it a byte at a time, more of them than the connection limit, requests hyper
//! cannot parse, and a client that reads nothing. The server must close them in time, answer
//! what it refuses with problem+json, and go on answering `/healthz` meanwhile.
//!
//! Run with `--nocapture` to see the figures each test prints.

mod process;

use std::time::{Duration, Instant};

use hyper::Method;
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

/// Sends `request` on a new connection and reads until the server closes it.
async fn raw(server: &Server, request: &[u8]) -> String {
    let mut socket = connect(server).await;
    socket.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await;
    read.expect("the server closed the connection").expect("read");
    String::from_utf8_lossy(&answer).into_owned()
}

/// The last response of `answer`: its status line and its problem document.
fn last_problem(answer: &str) -> (String, serde_json::Value) {
    let start = answer.rfind("HTTP/1.1 ").expect("a response");
    let (head, body) = answer[start..].split_once("\r\n\r\n").expect("a head");
    assert!(head.to_lowercase().contains("content-type: application/problem+json"), "{head}");
    let problem = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    (head.lines().next().unwrap().to_owned(), problem)
}

#[sqlx::test]
async fn requests_hyper_cannot_parse_are_answered_with_problem_json(pool: PgPool) {
    // hyper refuses these before any route runs: an obs-fold header, 101 headers, a URI over
    // 64 KiB. Each is 400 `malformed_request` saying what was wrong, and the server goes on.
    let server = start(&pool, &[]).await;
    let many: String = (0..101).map(|i| format!("X-H{i}: v\r\n")).collect();
    let long = "a".repeat(70_000);
    let cases = [
        (
            "obs-fold header",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fold: a\r\n b\r\n\r\n".to_owned(),
            "not valid HTTP",
        ),
        ("101 headers", format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n"), "headers are too large"),
        ("70 000-byte URI", format!("GET /{long} HTTP/1.1\r\nHost: x\r\n\r\n"), "URI is too long"),
    ];
    for (what, request, detail) in cases {
        let answer = raw(&server, request.as_bytes()).await;
        let (status, problem) = last_problem(&answer);
        assert!(status.starts_with("HTTP/1.1 400"), "{what}: {answer}");
        assert_eq!(problem["code"], "malformed_request", "{what}");
        assert_eq!(problem["status"], 400, "{what}");
        assert!(problem["detail"].as_str().unwrap().contains(detail), "{what}: {problem}");
        eprintln!("hostile load: {what}: {status}, {}", problem["detail"]);
    }
    // After a response on a kept-alive connection: that response intact, then the refusal.
    let answer = raw(
        &server,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nX-Fold: a\r\n b\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(answer.matches("HTTP/1.1 ").count(), 2, "{answer}");
    let (status, problem) = last_problem(&answer);
    assert!(status.starts_with("HTTP/1.1 400") && problem["code"] == "malformed_request", "{answer}");
    healthz(&server, 1).await;
}

#[sqlx::test]
async fn a_client_that_reads_nothing_is_dropped_after_the_write_timeout(pool: PgPool) {
    let server = start(&pool, &[("REVIEWLOCK_WRITE_TIMEOUT", "1s")]).await;
    // 100 pipelined requests for the spec (tens of MB in all), with a small receive buffer, and
    // nothing read: the server's writes stall.
    const REQUESTS: usize = 100;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(([127, 0, 0, 1], server.port).into()).await.unwrap();
    let request = "GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n".repeat(REQUESTS);
    stalled.write_all(request.as_bytes()).await.unwrap();
    let started = Instant::now();
    // Others are served meanwhile.
    let latencies = healthz(&server, 20).await;
    tokio::time::sleep(Duration::from_secs(3).saturating_sub(started.elapsed())).await;

    // Reading now finds the end of the connection after part of the responses, not all of them.
    let mut received = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stalled.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server closed the connection");
    let answered = received.windows(17).filter(|w| w == b"HTTP/1.1 200 OK\r\n").count();
    assert!(answered < REQUESTS, "all {REQUESTS} responses were sent to a client that read nothing");
    eprintln!(
        "hostile load: a client reading nothing (write timeout 1 s): dropped after {answered} of {REQUESTS} responses \
         ({} KB); /healthz meanwhile: 20 answered, p50 {}, max {}",
        received.len() / 1000,
        ms(latencies[latencies.len() / 2]),
        ms(*latencies.last().unwrap()),
    );
}

#[sqlx::test]
async fn an_event_stream_whose_client_reads_outlives_the_write_timeout(pool: PgPool) {
    // The write timeout measures a write that makes no progress, not a response's length.
    let server = start(&pool, &[("REVIEWLOCK_WRITE_TIMEOUT", "1s")]).await;
    let client = server.client();
    client.request(Method::PUT, "/v1/teams/t").bearer(ADMIN).json(serde_json::json!({})).must().await;
    let body = serde_json::json!({ "name": "coord", "scope": "coordinator" });
    let created = client.request(Method::POST, "/v1/teams/t/tokens").bearer(ADMIN).json(body);
    let token = created.must().await.body["token"].as_str().unwrap().to_owned();

    let mut stream = connect(&server).await;
    let request =
        format!("GET /v1/teams/t/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let opened = Instant::now();
    let mut received = String::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut agents = 0;
    // 3 s, three times the write timeout: an event every 300 ms, read as it comes.
    while opened.elapsed() < Duration::from_secs(3) {
        let tick = Instant::now();
        agents += 1;
        let path = format!("/v1/teams/t/agents/a{agents}");
        client
            .request(Method::PUT, &path)
            .bearer(&token)
            .json(serde_json::json!({ "roles": ["engineer"] }))
            .must()
            .await;
        match tokio::time::timeout(Duration::from_millis(300), stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => panic!("the stream was cut after {:?}: {received}", opened.elapsed()),
            Ok(Ok(n)) => received.push_str(&String::from_utf8_lossy(&buf[..n])),
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(300).saturating_sub(tick.elapsed())).await;
    }
    assert!(received.starts_with("HTTP/1.1 200"), "{received}");
    let events = received.matches("agent.created").count();
    assert!(events >= agents / 2, "{events} of {agents} events arrived: {received}");
}
