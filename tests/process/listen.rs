//! The in-process router on a port of 127.0.0.1, for a `reviewlock` process that asks it over
//! HTTP (a hook, `reviewlock check`): it answers as a server would, and keeps the body of every
//! request, so a test reads both what the process sent and what it made of the answer.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::{self, Next};
use serde_json::Value;

/// One request as the router received it.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// The body as JSON; `Null` when it is not JSON.
    pub body: Value,
}

/// The router listening until dropped.
pub struct Listening {
    /// `http://127.0.0.1:{port}`.
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Listening {
    /// What was received since the last call, in order.
    pub fn take(&self) -> Vec<Received> {
        std::mem::take(&mut *self.received.lock().unwrap())
    }
}

/// Serves `app` on a free port of 127.0.0.1, on this runtime: run the process that asks it off
/// the runtime's thread (`spawn_blocking`, `tokio::process`).
pub async fn listen(app: axum::Router) -> Listening {
    let received = Arc::new(Mutex::new(Vec::new()));
    let record = received.clone();
    let app = app.layer(middleware::from_fn(move |request: Request, next: Next| {
        let record = record.clone();
        async move {
            let (parts, body) = request.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            record.lock().unwrap().push(Received {
                method: parts.method.to_string(),
                path: parts.uri.path().to_owned(),
                body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            });
            next.run(Request::from_parts(parts, Body::from(bytes))).await
        }
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Listening { url, received, task }
}
