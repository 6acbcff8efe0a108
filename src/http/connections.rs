//! Connections: accepting them, bounding them, and closing them on shutdown.
//!
//! hyper serves each connection (HTTP/1.1) with a header read timeout, which in hyper 1 also
//! runs while a kept-alive connection waits for its next request: a socket that sends nothing,
//! or its headers a byte at a time, is closed when it runs out. At most `max_connections` are
//! open at once; a new connection past that closes the one that has waited longest for a
//! request (never one whose request is in progress, an event stream included), so a flood of
//! idle sockets delays nobody who sends a request at once, `/healthz` included. Only when every
//! connection has a request in progress is the new one closed unanswered. Each request carries
//! its peer's address (`ConnectInfo`) for the per-address limit on failed logins. What the
//! socket itself adds (a write timeout, problem+json for what hyper refuses) is in
//! [`super::socket`].

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use bytes::Bytes;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch};
use tower::ServiceExt;

use super::socket::{ProblemRefusals, Responses, Unsent, WriteTimeout};

/// How connections are bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    /// For a request's headers, and for a kept-alive connection's next request.
    pub header_read_timeout: Duration,
    /// How long a write may make no progress (a client reading nothing) before the connection
    /// is dropped.
    pub write_timeout: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes, then closes idle connections, lets
/// those with a request in progress finish it, and returns when all are closed.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, shutdown: impl Future<Output = ()>) {
    let registry = Arc::new(Registry { max: limits.max_connections.max(1), slots: Mutex::default() });
    let (stop, stopping) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it was accepted.
                tracing::warn!(error = %e, "accepting a connection failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some((place, evicted)) = registry.admit() else {
            // Every connection has a request in progress: this one is closed unanswered.
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        tokio::spawn(connection(stream, peer, app, limits, place, evicted, stopping.clone()));
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(());
    stop.closed().await;
}

/// One connection, until the client closes it, its timeout, its eviction, or shutdown.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    place: Place,
    mut evicted: oneshot::Receiver<()>,
    mut stopping: watch::Receiver<()>,
) {
    let (registry, id) = (place.registry.clone(), place.id);
    let responses = Arc::new(Responses::default());
    let io = ProblemRefusals::new(WriteTimeout::new(stream, limits.write_timeout), responses.clone());
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let busy = Busy::start(&registry, id);
        let unsent = responses.start();
        request.extensions_mut().insert(ConnectInfo(peer));
        let app = app.clone();
        async move {
            let response = app.oneshot(request.map(Body::new)).await.unwrap_or_else(|never| match never {});
            Ok::<_, Infallible>(response.map(|body| Tracked { body, _busy: busy, _unsent: unsent }))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_read_timeout);
    let mut conn = std::pin::pin!(http.serve_connection(TokioIo::new(io), service));
    let mut shutting_down = false;
    loop {
        tokio::select! {
            served = conn.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(error = %e, %peer, "connection ended");
                }
                break;
            }
            _ = stopping.changed(), if !shutting_down => {
                // Closes it now if idle, else after the response in progress.
                shutting_down = true;
                conn.as_mut().graceful_shutdown();
            }
            _ = &mut evicted, if !shutting_down => break,
        }
    }
    drop(place);
}

/// The open connections, and the order in which they began waiting for a request.
struct Registry {
    max: usize,
    slots: Mutex<Slots>,
}

#[derive(Default)]
struct Slots {
    next: u64,
    open: HashMap<u64, Slot>,
    /// Connections by when they began waiting, oldest first; an entry whose connection has
    /// since closed, or started a request, is stale (its `epoch` no longer matches).
    waiting: VecDeque<(u64, u64)>,
}

struct Slot {
    /// Requests in progress (their responses not yet sent in full).
    busy: usize,
    /// Bumped each time the connection begins waiting again.
    epoch: u64,
    evict: Option<oneshot::Sender<()>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a new connection, and what tells it it was evicted; past the limit, the
    /// connection waiting longest is evicted first; `None` when none is waiting.
    fn admit(self: &Arc<Self>) -> Option<(Place, oneshot::Receiver<()>)> {
        let mut slots = self.lock();
        if slots.open.len() >= self.max && !slots.evict_longest_waiting() {
            return None;
        }
        let id = slots.next;
        slots.next += 1;
        let (evict, evicted) = oneshot::channel();
        slots.open.insert(id, Slot { busy: 0, epoch: 0, evict: Some(evict) });
        slots.waiting.push_back((id, 0));
        Some((Place { registry: self.clone(), id }, evicted))
    }

    #[cfg(test)]
    fn open(&self) -> usize {
        self.lock().open.len()
    }
}

impl Slots {
    fn is_waiting(&self, id: u64, epoch: u64) -> bool {
        self.open.get(&id).is_some_and(|s| s.busy == 0 && s.epoch == epoch)
    }

    fn evict_longest_waiting(&mut self) -> bool {
        while let Some((id, epoch)) = self.waiting.pop_front() {
            if self.is_waiting(id, epoch) {
                let slot = self.open.remove(&id).expect("a waiting connection is open");
                if let Some(evict) = slot.evict {
                    let _ = evict.send(());
                }
                return true;
            }
        }
        false
    }

    fn request_ended(&mut self, id: u64) {
        let Some(slot) = self.open.get_mut(&id) else { return };
        slot.busy -= 1;
        if slot.busy == 0 {
            slot.epoch += 1;
            let epoch = slot.epoch;
            self.waiting.push_back((id, epoch));
        }
        // Stale entries are dropped by evictions; without any, now and then here.
        if self.waiting.len() > 2 * self.open.len() + 64 {
            let mut waiting = std::mem::take(&mut self.waiting);
            waiting.retain(|&(id, epoch)| self.is_waiting(id, epoch));
            self.waiting = waiting;
        }
    }
}

/// A connection's place in the registry, given up when the connection ends.
struct Place {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.registry.lock().open.remove(&self.id);
    }
}

/// A request in progress on a connection, until its response is sent (or dropped).
struct Busy {
    registry: Arc<Registry>,
    id: u64,
}

impl Busy {
    fn start(registry: &Arc<Registry>, id: u64) -> Self {
        if let Some(slot) = registry.lock().open.get_mut(&id) {
            slot.busy += 1;
        }
        Busy { registry: registry.clone(), id }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.registry.lock().request_ended(self.id);
    }
}

/// A response body that holds its request's [`Busy`] (and [`Unsent`]) until it is sent in full.
struct Tracked {
    body: Body,
    _busy: Busy,
    _unsent: Unsent,
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Raises this process's soft limit on open files towards `wanted` (as far as the hard limit
/// allows), and returns the limit in force.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // `rlim_t` is `u64` on Linux, not on every Unix.
pub fn raise_open_files_limit(wanted: u64) -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct they are given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return u64::MAX;
    }
    if (limit.rlim_cur as u64) < wanted && limit.rlim_cur < limit.rlim_max {
        let raised =
            libc::rlimit { rlim_cur: (wanted as libc::rlim_t).min(limit.rlim_max), rlim_max: limit.rlim_max };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = raised.rlim_cur;
        }
    }
    limit.rlim_cur as u64
}

#[cfg(not(unix))]
pub fn raise_open_files_limit(_wanted: u64) -> u64 {
    u64::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(max: usize) -> Arc<Registry> {
        Arc::new(Registry { max, slots: Mutex::default() })
    }

    #[test]
    fn past_the_limit_the_connection_waiting_longest_is_evicted() {
        let registry = registry(2);
        let (a, mut a_evicted) = registry.admit().unwrap();
        let (b, mut b_evicted) = registry.admit().unwrap();
        // `a` has a request in progress: `b` has waited longest.
        let busy = Busy::start(&registry, a.id);
        let (_c, _) = registry.admit().unwrap();
        assert!(b_evicted.try_recv().is_ok(), "b was evicted");
        assert!(a_evicted.try_recv().is_err());
        assert_eq!(registry.open(), 2);
        drop(b);
        // Now `c` waits, and `a` again once its response is sent: `c` began first.
        drop(busy);
        let (_d, _) = registry.admit().unwrap();
        assert!(a_evicted.try_recv().is_err(), "a began waiting after c");
    }

    #[test]
    fn with_every_connection_busy_a_new_one_is_refused() {
        let registry = registry(1);
        let (a, _) = registry.admit().unwrap();
        let _busy = Busy::start(&registry, a.id);
        assert!(registry.admit().is_none());
        drop(_busy);
        assert!(registry.admit().is_some(), "a waits again, and makes room");
    }

    #[test]
    fn stale_waiting_entries_do_not_pile_up() {
        let registry = registry(10);
        let (a, _) = registry.admit().unwrap();
        for _ in 0..1000 {
            drop(Busy::start(&registry, a.id));
        }
        assert!(registry.lock().waiting.len() <= 2 + 64 + 1);
    }
}
