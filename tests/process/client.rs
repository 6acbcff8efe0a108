//! The one HTTP client of the process tests: each request on its own connection (as
//! `reviewlock check` asks, and so that a restarted or stopping server is seen as it is), `Err`
//! when no answer came (refused, reset, or none within the client's timeout).

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::header::{self, HeaderMap};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use serde_json::Value;

/// Requests to the server on `127.0.0.1:{port}`.
#[derive(Debug, Clone, Copy)]
pub struct Client {
    port: u16,
    timeout: Duration,
}

impl Client {
    /// A client whose requests give up after 30 s.
    pub fn new(port: u16) -> Self {
        Client { port, timeout: Duration::from_secs(30) }
    }

    /// How long a request may take, connection included, before it counts as unanswered.
    pub fn timeout(self, timeout: Duration) -> Self {
        Client { timeout, ..self }
    }

    pub fn request(&self, method: Method, path: &str) -> Call {
        Call { client: *self, method, path: path.to_owned(), headers: Vec::new(), body: None }
    }

    pub fn get(&self, path: &str) -> Call {
        self.request(Method::GET, path)
    }
}

/// One request being built; [`Call::send`] sends it.
#[derive(Debug)]
pub struct Call {
    client: Client,
    method: Method,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<Value>,
}

/// An answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    /// The body as JSON; `Null` when it is not JSON.
    pub body: Value,
    pub bytes: Vec<u8>,
    /// From the start of the connection to the end of the body.
    pub elapsed: Duration,
}

impl Call {
    pub fn bearer(self, token: &str) -> Self {
        self.header(header::AUTHORIZATION.as_str(), &format!("Bearer {token}"))
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// A JSON body (`Some`), or none.
    pub fn json(mut self, body: impl Into<Option<Value>>) -> Self {
        self.body = body.into();
        self
    }

    pub async fn send(self) -> Result<Reply, String> {
        let Call { client, method, path, headers, body } = self;
        let started = Instant::now();
        let exchange = async {
            let mut request = Request::builder()
                .method(method.clone())
                .uri(&path)
                .header(header::HOST, format!("127.0.0.1:{}", client.port));
            for (name, value) in &headers {
                request = request.header(name, value);
            }
            let bytes = match &body {
                Some(body) => {
                    request = request.header(header::CONTENT_TYPE, "application/json");
                    body.to_string()
                }
                None => String::new(),
            };
            let request = request.body(Full::new(bytes::Bytes::from(bytes))).map_err(|e| e.to_string())?;
            let stream = tokio::net::TcpStream::connect(("127.0.0.1", client.port))
                .await
                .map_err(|e| format!("connect: {e}"))?;
            let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| format!("handshake: {e}"))?;
            tokio::spawn(connection);
            let response = sender.send_request(request).await.map_err(|e| format!("send: {e}"))?;
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let bytes =
                response.into_body().collect().await.map_err(|e| format!("body: {e}"))?.to_bytes().to_vec();
            let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            Ok::<_, String>(Reply { status, headers, body, bytes, elapsed: started.elapsed() })
        };
        match tokio::time::timeout(client.timeout, exchange).await {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(e)) => Err(format!("{method} {path}: {e}")),
            Err(_) => Err(format!("{method} {path}: no answer within {:?}", client.timeout)),
        }
    }

    /// Sends a request that must be answered 2xx.
    pub async fn must(self) -> Reply {
        let what = format!("{} {}", self.method, self.path);
        let reply = self.send().await.unwrap();
        assert!((200..300).contains(&reply.status), "{what}: {} {}", reply.status, reply.body);
        reply
    }
}

impl Reply {
    /// A header's value; empty when it is absent.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
    }

    /// The problem's stable `code`; empty when there is none.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or_default()
    }

    /// An `application/problem+json` answer with this status and code.
    pub fn is_problem(&self, status: u16, code: &str) -> bool {
        self.status == status
            && self.code() == code
            && self.header("content-type") == "application/problem+json"
    }
}
