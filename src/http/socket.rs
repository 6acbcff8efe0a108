//! A connection's socket as hyper uses it: a write that makes no progress for the write timeout
//! fails, and hyper's own refusals (a request it cannot parse) go out as problem+json.
//!
//! hyper answers a request it cannot parse (a malformed head: 400; more than 100 headers or
//! 400 KB of them: 431; a URI over 65 534 bytes: 414) by itself, with a bare status line, and no
//! hook. It writes that answer only between responses, as the last bytes of the connection, so
//! whatever it writes while no request of ours is unanswered is such a refusal:
//! [`ProblemRefusals`] sends a problem document in its place.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use crate::error::Error;

/// Fails a write (or flush, or shutdown) that stays pending for `timeout`: a client that reads
/// nothing of its response is dropped. A stream that keeps writing never times out.
pub struct WriteTimeout<S> {
    io: S,
    timeout: Duration,
    /// Since the pending write began.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteTimeout<S> {
    pub fn new(io: S, timeout: Duration) -> Self {
        WriteTimeout { io, timeout, stalled: None }
    }

    fn guard<T>(
        &mut self,
        cx: &mut Context<'_>,
        write: impl FnOnce(&mut S, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(written) = write(&mut self.io, cx) {
            self.stalled = None;
            return Poll::Ready(written);
        }
        let timeout = self.timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stalled.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client read nothing within the write timeout",
        )))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteTimeout<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.guard(cx, |io, cx| Pin::new(io).poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.guard(cx, |io, cx| Pin::new(io).poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.guard(cx, |io, cx| Pin::new(io).poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.guard(cx, |io, cx| Pin::new(io).poll_shutdown(cx))
    }
}

/// The requests of one connection handed to the service, and how many of their responses are
/// not yet sent in full.
#[derive(Default)]
pub struct Responses {
    started: AtomicU64,
    unsent: AtomicUsize,
}

impl Responses {
    /// A request was parsed: its response is owed until the returned guard is dropped (with
    /// the response's body, once hyper has written all of it).
    pub fn start(self: &Arc<Self>) -> Unsent {
        self.started.fetch_add(1, Ordering::Relaxed);
        self.unsent.fetch_add(1, Ordering::Relaxed);
        Unsent(self.clone())
    }
}

/// A response not yet written in full.
pub struct Unsent(Arc<Responses>);

impl Drop for Unsent {
    fn drop(&mut self) {
        self.0.unsent.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Sends a problem document in place of hyper's own bare refusal (see the module's comment).
pub struct ProblemRefusals<S> {
    io: S,
    responses: Arc<Responses>,
    /// The requests started when a flush last completed with every response sent: until
    /// another starts, hyper writes nothing of ours.
    idle_since: Option<u64>,
    /// The problem document still to send; once set, hyper's own bytes are dropped.
    refusal: Option<(Vec<u8>, usize)>,
}

impl<S> ProblemRefusals<S> {
    pub fn new(io: S, responses: Arc<Responses>) -> Self {
        ProblemRefusals { io, responses, idle_since: Some(0), refusal: None }
    }

    fn is_hyper_refusal(&self) -> bool {
        self.responses.unsent.load(Ordering::Relaxed) == 0
            && self.idle_since == Some(self.responses.started.load(Ordering::Relaxed))
    }
}

impl<S: AsyncWrite + Unpin> ProblemRefusals<S> {
    /// Writes what is left of the problem document.
    fn poll_refusal(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Some((bytes, sent)) = &mut self.refusal else { return Poll::Ready(Ok(())) };
        while *sent < bytes.len() {
            match ready!(Pin::new(&mut self.io).poll_write(cx, &bytes[*sent..]))? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                n => *sent += n,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// `written` is hyper's next bytes: at most the start of its refusal, or a response.
    fn poll_write_with(
        &mut self,
        cx: &mut Context<'_>,
        head: &[u8],
        len: usize,
        write: impl FnOnce(&mut S, &mut Context<'_>) -> Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        if self.refusal.is_none() && self.is_hyper_refusal() {
            match refused_status(head) {
                Some(status) => self.refusal = Some((problem_response(status), 0)),
                None => tracing::warn!("hyper wrote between responses, and not a refusal"),
            }
        }
        if self.refusal.is_some() {
            // hyper's bare answer is dropped: it believes it sent it, and closes the connection.
            ready!(self.poll_refusal(cx))?;
            return Poll::Ready(Ok(len));
        }
        write(&mut self.io, cx)
    }
}

/// The status of hyper's bare refusal `HTTP/1.1 431 Request Header Fields Too Large…`.
fn refused_status(head: &[u8]) -> Option<u16> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let status: u16 = std::str::from_utf8(status).ok()?.parse().ok()?;
    (400..500).contains(&status).then_some(status)
}

/// The whole response in place of hyper's refusal `status`: 400 `malformed_request`, saying what
/// hyper could not take.
fn problem_response(status: u16) -> Vec<u8> {
    let detail = match status {
        431 => "the request's headers are too large: at most 100 headers, and 400 KB in all",
        414 => "the request's URI is too long: at most 65534 bytes",
        _ => "the request is not valid HTTP/1.1",
    };
    let problem = crate::http::error::problem(&Error::Malformed(detail.into()));
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    let mut response = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    response.extend_from_slice(&body);
    response
}

impl<S: AsyncRead + Unpin> AsyncRead for ProblemRefusals<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for ProblemRefusals<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.poll_write_with(cx, buf, buf.len(), |io, cx| Pin::new(io).poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let head = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| &b[..]);
        let len = bufs.iter().map(|b| b.len()).sum();
        self.poll_write_with(cx, head, len, |io, cx| Pin::new(io).poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_refusal(cx))?;
        ready!(Pin::new(&mut self.io).poll_flush(cx))?;
        // Everything written is sent: with no response owed, the connection is between two.
        if self.responses.unsent.load(Ordering::Relaxed) == 0 {
            self.idle_since = Some(self.responses.started.load(Ordering::Relaxed));
        }
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_refusal(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_client_error_status_line_is_a_refusal() {
        assert_eq!(refused_status(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"), Some(431));
        assert_eq!(refused_status(b"HTTP/1.1 400 Bad Request\r\n"), Some(400));
        assert_eq!(refused_status(b"HTTP/1.1 200 OK\r\n"), None);
        assert_eq!(refused_status(b"0\r\n\r\n"), None);
    }

    #[test]
    fn the_refusal_is_a_problem_document_with_its_length() {
        let response = String::from_utf8(problem_response(414)).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains(&format!("content-length: {}\r\n", body.len())), "{head}");
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["code"], "malformed_request");
        assert_eq!(problem["status"], 400);
        assert!(problem["detail"].as_str().unwrap().contains("URI is too long"));
    }
}
