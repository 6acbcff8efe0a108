//! Prometheus metrics, served at `GET /metrics` in the text format.
//!
//! Three kinds of series, none of which a scrape reads from the database:
//! - **Recorded** as things happen, with the `metrics` crate into one process-wide
//!   `metrics-exporter-prometheus` recorder: requests by route template and status (counted and
//!   timed by the HTTP middleware), refusals by code, and the protocol's counters. A protocol
//!   counter is recorded only once its transaction has committed ([`Counted`], emitted by
//!   `app::unit`), so a rolled-back write never counts, and a replay (which runs nothing)
//!   never counts twice. Every series with a known set of labels (refusals by each code,
//!   reviews by verdict, resolutions by action, lockouts and deadlocks) exists at 0 from the
//!   start ([`describe`]), so a dashboard shows 0 after a restart, not "no data".
//! - **This process's pool**, read from memory at each scrape: its connections and waiters.
//! - **The database's gauges**, active lockouts and open escalations, read every [`REFRESH`] by
//!   one task per process ([`DatabaseGauges::keep_fresh`], started by `serve`) and served from
//!   memory, so a scrape answers at once even while the database does not. They are kept per
//!   team in `team_counters` by triggers (migration 0003), so the refresh sums one small row per
//!   team instead of scanning lockouts, and every replica reports the same totals. When a
//!   refresh fails they are left out until one succeeds: an outage shows as their absence, not
//!   as stale values. They are rendered by hand after the recorder's series: the recorder holds
//!   values pushed to it, while these belong to one service's state (tests run many, each on its
//!   own database, in one process).
//!
//! The pool's waiters are counted by `store::Db`, through which everything of the process takes
//! its connections (sqlx does not count them); the connections parked there for the next
//! request count as idle. A pool that is too small shows as waiters above zero,
//! `reviewlock_db_pool_in_use` at `reviewlock_db_pool_max` and, once a wait exceeds
//! `REVIEWLOCK_DB_ACQUIRE_TIMEOUT`, as refusals with `code="unavailable"`.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use metrics::{Label, Unit, counter, describe_counter, describe_histogram, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::domain::{Code, Verdict};
use crate::domain::{ResolutionAction, TargetKind};
use crate::outbound::Reply;
use crate::store::{self, Db};

pub const HTTP_REQUESTS: &str = "reviewlock_http_requests_total";
pub const HTTP_DURATION: &str = "reviewlock_http_request_duration_seconds";
pub const REFUSALS: &str = "reviewlock_refusals_total";
pub const REVIEWS: &str = "reviewlock_reviews_total";
pub const LOCKOUTS_CREATED: &str = "reviewlock_lockouts_created_total";
pub const DEADLOCKS_OPENED: &str = "reviewlock_deadlocks_opened_total";
pub const DEADLOCKS_RESOLVED: &str = "reviewlock_deadlocks_resolved_total";
pub const DELIVERIES: &str = "reviewlock_deliveries_total";
pub const DELIVERY_DURATION: &str = "reviewlock_delivery_duration_seconds";
pub const DELIVERY_BACKLOG: &str = "reviewlock_delivery_oldest_undelivered_seconds";

/// Request latency buckets, in seconds: 1 ms to 10 s. A long poll that waits (up to its `wait`,
/// 60 s at most) lands in the upper buckets or `+Inf`; an event stream is timed to its first byte.
const LATENCY_BUCKETS: [f64; 13] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Delivery attempts take up to the outbound timeout (15 s).
const DELIVERY_BUCKETS: [f64; 10] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process-wide recorder's handle, installed on first use: every `app` of the
/// process shares it, and installing never panics. Should another recorder already be the
/// global one (an embedding program's), this handle renders only the scrape-time gauges.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), &LATENCY_BUCKETS)
            .expect("the bucket list is not empty")
            .set_buckets_for_metric(Matcher::Full(DELIVERY_DURATION.into()), &DELIVERY_BUCKETS)
            .expect("the bucket list is not empty")
            .build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, describe);
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed; /metrics shows only the gauges");
        }
        handle
    })
}

/// Describes every recorded series, and creates at 0 each one whose labels are known in
/// advance: refusals by every code, reviews by verdict, resolutions by action, lockouts created
/// and deadlocks opened. (Requests by route and status appear with their first request.)
pub fn describe() {
    describe_counter!(HTTP_REQUESTS, "HTTP requests answered, by method, route template and status.");
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "Time to answer an HTTP request (to the first byte of a stream), by method, route template and status."
    );
    describe_counter!(
        REFUSALS,
        "Error responses (4xx and 5xx) by their problem+json `code`; replays are not refusals."
    );
    describe_counter!(REVIEWS, "Committed reviews, by verdict (approve, reject).");
    describe_counter!(LOCKOUTS_CREATED, "Agents locked out by committed rejections.");
    describe_counter!(DEADLOCKS_OPENED, "Rejections that deadlocked an artifact and opened an escalation.");
    describe_counter!(DEADLOCKS_RESOLVED, "Deadlocks resolved by the user, by action (assign, abandon).");
    for code in Code::ALL {
        counter!(REFUSALS, "code" => code.as_str()).absolute(0);
    }
    for verdict in Verdict::ALL {
        counter!(REVIEWS, "verdict" => verdict.as_str()).absolute(0);
    }
    for action in ResolutionAction::ALL {
        counter!(DEADLOCKS_RESOLVED, "action" => action.as_str()).absolute(0);
    }
    describe_counter!(
        DELIVERIES,
        "Delivery attempts of webhooks and commit statuses, by target kind (webhook, forge) and outcome (success: a 2xx; failure: another status; error: no response)."
    );
    describe_histogram!(DELIVERY_DURATION, Unit::Seconds, "Time a delivery attempt took, by target kind.");
    for kind in TargetKind::ALL {
        for outcome in Delivery::ALL {
            counter!(DELIVERIES, "kind" => kind.as_str(), "outcome" => outcome.as_str()).absolute(0);
        }
    }
    counter!(LOCKOUTS_CREATED).absolute(0);
    counter!(DEADLOCKS_OPENED).absolute(0);
}

/// Upkeep of the recorder (draining histogram samples) between scrapes, so memory stays
/// bounded when nobody scrapes. Runs for the life of the process.
pub async fn upkeep() {
    let handle = handle();
    let mut every = tokio::time::interval(Duration::from_secs(5));
    loop {
        every.tick().await;
        handle.run_upkeep();
    }
}

/// One answered request: counted and timed by its route template (`unmatched` when no route
/// matched) and status; an error response's `code` is also counted as a refusal.
pub fn record_request(
    method: &str,
    route: Option<&str>,
    status: u16,
    elapsed: Duration,
    code: Option<&'static str>,
) {
    let method: &'static str = match method {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        // Any other method is a client's invention: one label value for all of them.
        _ => "other",
    };
    let route = route.unwrap_or("unmatched").to_owned();
    let status = status.to_string();
    let labels = vec![Label::new("method", method), Label::new("route", route), Label::new("status", status)];
    counter!(HTTP_REQUESTS, labels.iter()).increment(1);
    histogram!(HTTP_DURATION, labels).record(elapsed.as_secs_f64());
    if let Some(code) = code {
        counter!(REFUSALS, "code" => code).increment(1);
    }
}

/// Something a write did that the metrics count, recorded only after its commit.
/// How a delivery attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// A 2xx.
    Success,
    /// Another status.
    Failure,
    /// No response: refused, timed out, unreachable, or not allowed.
    Error,
}

impl Delivery {
    pub const ALL: [Delivery; 3] = [Delivery::Success, Delivery::Failure, Delivery::Error];

    pub fn of(reply: &Reply) -> Delivery {
        match reply.status {
            _ if reply.succeeded() => Delivery::Success,
            Some(_) => Delivery::Failure,
            None => Delivery::Error,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Success => "success",
            Delivery::Failure => "failure",
            Delivery::Error => "error",
        }
    }
}

/// Counts a delivery attempt to a target of `kind`.
pub fn record_delivery(kind: TargetKind, outcome: Delivery, took: Duration) {
    counter!(DELIVERIES, "kind" => kind.as_str(), "outcome" => outcome.as_str()).increment(1);
    histogram!(DELIVERY_DURATION, "kind" => kind.as_str()).record(took.as_secs_f64());
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// A review with its verdict.
    Review(Verdict),
    /// Agents locked out by a rejection.
    LockoutsCreated(u64),
    /// A rejection that deadlocked the artifact.
    DeadlockOpened,
    /// The user's resolution of a deadlock.
    DeadlockResolved(ResolutionAction),
}

impl Counted {
    pub fn record(self) {
        match self {
            Counted::Review(verdict) => counter!(REVIEWS, "verdict" => verdict.as_str()).increment(1),
            Counted::LockoutsCreated(n) => counter!(LOCKOUTS_CREATED).increment(n),
            Counted::DeadlockOpened => counter!(DEADLOCKS_OPENED).increment(1),
            Counted::DeadlockResolved(action) => {
                counter!(DEADLOCKS_RESOLVED, "action" => action.as_str()).increment(1)
            }
        }
    }
}

/// The page: the recorded series, then this process's pool and the database's gauges, all
/// from memory.
pub fn render(db: &Db, database_gauges: &DatabaseGauges, index: &IndexGauges) -> String {
    let mut page = handle().render();
    let size = u64::from(db.size());
    let idle = db.idle() as u64;
    let mut gauge = |name: &str, help: &str, value: u64| {
        let _ = write!(page, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}\n");
    };
    gauge(
        "reviewlock_db_pool_max",
        "Connections this process's pool may open (REVIEWLOCK_DB_MAX_CONNECTIONS).",
        u64::from(db.max_connections()),
    );
    gauge("reviewlock_db_pool_size", "Connections this process's pool holds open.", size);
    gauge(
        "reviewlock_db_pool_idle",
        "Open connections of this process's pool that are idle (in the pool or parked for the next request).",
        idle,
    );
    gauge(
        "reviewlock_db_pool_in_use",
        "Connections of this process's pool in use (size - idle), the event listener's included.",
        size.saturating_sub(idle),
    );
    gauge(
        "reviewlock_db_pool_waiting",
        "Requests and tasks of this process waiting for a pooled connection.",
        db.waiting(),
    );
    gauge(
        "reviewlock_index_teams",
        "Teams the lockout index of this process holds.",
        index.teams.load(Ordering::Relaxed),
    );
    gauge(
        "reviewlock_index_entries",
        "Entries (artifacts, active lockouts, agents, aliases) the lockout index of this process holds, all teams together (REVIEWLOCK_INDEX_BUDGET bounds it).",
        index.entries.load(Ordering::Relaxed),
    );
    if let Some(Totals { lockouts, escalations, backlog }) = database_gauges.get() {
        gauge(
            "reviewlock_active_lockouts",
            &format!(
                "Active lockouts across all teams of the database (the same on every replica), read every {} s.",
                REFRESH.as_secs()
            ),
            lockouts,
        );
        gauge(
            "reviewlock_open_escalations",
            &format!(
                "Open escalations (deadlocked artifacts waiting for the user) across all teams of the database, read every {} s.",
                REFRESH.as_secs()
            ),
            escalations,
        );
        let _ = write!(
            page,
            "# HELP {DELIVERY_BACKLOG} Age of the oldest event each enabled webhook or forge has not yet delivered (absent when it is caught up), by team, target id and kind, read every {} s.\n# TYPE {DELIVERY_BACKLOG} gauge\n",
            REFRESH.as_secs()
        );
        for (team, target, kind, age) in backlog {
            let _ = writeln!(
                page,
                "{DELIVERY_BACKLOG}{{team=\"{team}\",target=\"{target}\",kind=\"{}\"}} {age:.3}",
                kind.as_str()
            );
        }
    }
    let _ = write!(
        page,
        "# HELP reviewlock_checks_total Checks this process answered, by what answered them (the lockout index or the database).\n# TYPE reviewlock_checks_total counter\n"
    );
    for (by, n) in [
        ("index", index.answered_by_index.load(Ordering::Relaxed)),
        ("database", index.answered_by_database.load(Ordering::Relaxed)),
    ] {
        let _ = writeln!(page, "reviewlock_checks_total{{answered_by=\"{by}\"}} {n}");
    }
    page
}

/// The lockout index's size and use (`app::index`), kept by the index and rendered at each
/// scrape: one service's state, like the pool's gauges.
#[derive(Debug, Default)]
pub struct IndexGauges {
    pub teams: AtomicU64,
    pub entries: AtomicU64,
    pub answered_by_index: AtomicU64,
    pub answered_by_database: AtomicU64,
}

/// How often [`DatabaseGauges::keep_fresh`] reads the database's gauges (the HELP texts say it).
pub const REFRESH: Duration = Duration::from_secs(5);

/// The database's gauges as last read: `None` before the first read and after a failed one.
#[derive(Default)]
pub struct DatabaseGauges(Mutex<Option<Totals>>);

#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    pub lockouts: u64,
    pub escalations: u64,
    /// Each target behind its team's log: team, target, kind, age in seconds of its oldest
    /// undelivered event.
    pub backlog: Vec<(String, uuid::Uuid, TargetKind, f64)>,
}

impl DatabaseGauges {
    pub fn get(&self) -> Option<Totals> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Reads the gauges now: one statement, one row per team kept by triggers.
    pub async fn refresh(&self, db: &Db) {
        let read = db
            .read(async |conn| {
                let (lockouts, escalations) = store::operations::totals(conn).await?;
                Ok::<_, sqlx::Error>((lockouts, escalations, store::targets::backlog(conn).await?))
            })
            .await;
        let totals = match read {
            Ok((lockouts, escalations, backlog)) => Some(Totals { lockouts, escalations, backlog }),
            Err(e) => {
                tracing::warn!(error = %e, "reading the database's gauges for /metrics failed");
                None
            }
        };
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = totals;
    }

    /// Refreshes the gauges every [`REFRESH`], for the life of the process.
    pub async fn keep_fresh(&self, db: Db) {
        let mut every = tokio::time::interval(REFRESH);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            self.refresh(&db).await;
        }
    }
}
