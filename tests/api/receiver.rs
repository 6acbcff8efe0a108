//! A receiver of deliveries on 127.0.0.1 (webhooks, a fake GitHub or GitLab): it records every
//! request and answers with the status it is told to, and checks what it received with
//! independent implementations (the `standardwebhooks` Python package; GitHub's OpenAPI
//! description with a JSON Schema validator), both from tests/deliveries/. Shared by
//! tests/api and tests/deliveries.rs.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use serde_json::{Value, json};

/// One request as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
    /// The status answered (0: not answered, held).
    pub answered: u16,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

#[derive(Default)]
struct Shared {
    received: Mutex<Vec<Received>>,
    /// The status to answer; 0 holds the request unanswered for good.
    status: AtomicU16,
    /// Milliseconds to wait before answering.
    delay_ms: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

/// A receiver listening on a port of 127.0.0.1 until dropped.
pub struct Receiver {
    /// `http://127.0.0.1:{port}`.
    pub url: String,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Starts a receiver that answers 204.
    pub async fn start() -> Receiver {
        let shared = Arc::new(Shared { status: AtomicU16::new(204), ..Shared::default() });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = shared.clone();
        let handler = move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let shared = state.clone();
            async move {
                let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
                let status = shared.status.load(Ordering::SeqCst);
                shared.received.lock().unwrap().push(Received {
                    method: method.to_string(),
                    path: uri.path().to_owned(),
                    headers,
                    body: body.to_vec(),
                    answered: status,
                });
                let delay = shared.delay_ms.load(Ordering::SeqCst) as u64;
                if delay > 0 {
                    tokio::time::sleep(Duration::from_millis(delay)).await;
                }
                if status == 0 {
                    std::future::pending::<()>().await;
                }
                shared.in_flight.fetch_sub(1, Ordering::SeqCst);
                StatusCode::from_u16(status).unwrap()
            }
        };
        let app = axum::Router::new().fallback(handler);
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Receiver { url, shared, task }
    }

    /// Answers `status` from now on (0: holds every request unanswered).
    pub fn answer(&self, status: u16) {
        self.shared.status.store(status, Ordering::SeqCst);
    }

    /// Waits this long before answering each request.
    pub fn delay(&self, delay: Duration) {
        self.shared.delay_ms.store(delay.as_millis() as usize, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// The most requests it was answering at once.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// Waits until what was received satisfies `done` (at most `within`); what was received.
    pub async fn until(&self, within: Duration, done: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        let started = Instant::now();
        loop {
            let received = self.received();
            if done(&received) {
                return received;
            }
            if started.elapsed() > within {
                panic!(
                    "the receiver did not get what was expected within {within:?}; it got {} requests: {:#?}",
                    received.len(),
                    received.iter().map(|r| (&r.path, r.answered, r.json())).collect::<Vec<_>>()
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The seq of a webhook delivery's event.
pub fn seq(r: &Received) -> i64 {
    r.json()["data"]["seq"].as_i64().unwrap_or(-1)
}

/// A tool's path under tests/deliveries (installed there, or in target/ by `.ci/run`).
fn tools() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/deliveries")
}

/// Runs `program` with JSON lines on stdin; its stdout's lines, and whether it succeeded.
fn run(mut command: Command, lines: &[Value], missing: &str) -> (Vec<String>, bool) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{missing}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (text.lines().map(str::to_owned).collect(), output.status.success())
}

/// Asserts that each delivery verifies with `secret`, by the `standardwebhooks` package.
pub fn verify_signatures(secret: &str, deliveries: &[Received]) {
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/deliveries-python/bin/python");
    assert!(
        python.exists(),
        "{} is missing: python3 -m venv target/deliveries-python && target/deliveries-python/bin/pip install -r tests/deliveries/requirements.txt (.ci/run does)",
        python.display()
    );
    let lines: Vec<Value> = deliveries
        .iter()
        .map(|d| {
            let headers: serde_json::Map<String, Value> =
                ["webhook-id", "webhook-timestamp", "webhook-signature"]
                    .iter()
                    .map(|h| (h.to_string(), json!(d.header(h))))
                    .collect();
            json!({ "secret": secret, "headers": headers, "body": String::from_utf8_lossy(&d.body) })
        })
        .collect();
    let mut command = Command::new(python);
    command.arg(tools().join("verify.py"));
    let (results, ok) = run(command, &lines, "python runs verify.py");
    assert!(ok && results.iter().all(|r| r == "ok") && results.len() == deliveries.len(), "{results:?}");
}

/// Asserts that each request validates against GitHub's `repos/create-commit-status`.
pub fn validate_github_statuses(requests: &[Received]) {
    assert!(
        tools().join("node_modules/@octokit/openapi").exists(),
        "tests/deliveries/node_modules is missing: run `npm ci` in tests/deliveries (.ci/run does)"
    );
    let lines: Vec<Value> =
        requests.iter().map(|r| json!({ "method": r.method, "path": r.path, "body": r.json() })).collect();
    let mut command = Command::new("node");
    command.arg(tools().join("create-commit-status.mjs")).current_dir(tools());
    let (results, ok) = run(command, &lines, "node runs create-commit-status.mjs");
    assert!(ok && results.iter().all(|r| r == "ok") && results.len() == requests.len(), "{results:?}");
}
