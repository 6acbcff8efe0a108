//! A team's hub and its waiters: the hub's task reads the team's log once per wake-up for every
//! long poll and stream of the team, and each waiter serves its pages from what the hub read.

use std::collections::VecDeque;
use std::future::pending;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, watch};
use tokio::time::Instant;

use super::{FALLBACK, RECENT, Shared, closing, lock};
use crate::store::events::{self, EventRow};
use crate::store::teams;

/// One team's waiters: woken by the listener, read for by its task.
pub(super) struct Hub {
    team: Arc<str>,
    /// The listener's wake-ups for the task; one stored while it reads is not lost.
    wake: Notify,
    /// Its last waiter has gone: the task ends.
    retired: AtomicBool,
    /// What the task knows of the log, for the waiters (one receiver each).
    recent: watch::Sender<Recent>,
}

impl Hub {
    pub(super) fn new(team: Arc<str>) -> Hub {
        Hub {
            team,
            wake: Notify::new(),
            retired: AtomicBool::new(false),
            recent: watch::channel(Recent::default()).0,
        }
    }

    /// Wakes the hub's task to read the log.
    pub(super) fn wake(&self) {
        self.wake.notify_one();
    }
}

/// A hub's task: reads the team's log on each wake-up and every [`FALLBACK`], until the team's
/// last waiter goes or the feed closes.
pub(super) async fn follow(shared: Arc<Shared>, hub: Arc<Hub>, mut closed: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            () = hub.wake.notified() => {}
            () = tokio::time::sleep(FALLBACK) => {}
            () = closing(&mut closed) => return,
        }
        if hub.retired.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = hub.read(&shared).await {
            tracing::warn!(error = %e, team = %hub.team, "reading the event log for its waiters failed; retrying in 1 s");
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(1)) => hub.wake.notify_one(),
                () = closing(&mut closed) => return,
            }
        }
    }
}

impl Hub {
    /// Reads the events after the last seq the hub knows (all of them, [`RECENT`] at a time)
    /// and publishes them; the waiters wake only when there is something new.
    async fn read(&self, shared: &Shared) -> sqlx::Result<()> {
        loop {
            let last = self.recent.borrow().last;
            shared.count_read();
            let Some(last) = last else {
                // No waiter has told where the log stood yet: learn it.
                let seq = shared.db.read(async |conn| teams::last_event_seq(conn, &self.team).await).await?;
                if let Some(seq) = seq {
                    self.recent.send_if_modified(|recent| recent.seen(seq));
                }
                return Ok(());
            };
            let rows = shared
                .db
                .read(async |conn| events::page(conn, &self.team, last, RECENT as i64).await)
                .await?;
            let more = rows.len() == RECENT;
            self.recent.send_if_modified(|recent| recent.push(rows));
            if !more {
                return Ok(());
            }
        }
    }
}

/// What a hub knows of its team's log: every event with a seq in `(from, last]`, in order.
#[derive(Debug, Default)]
struct Recent {
    /// The team's last seq as last read; `None` until a waiter or a read tells.
    last: Option<i64>,
    from: i64,
    events: VecDeque<EventRow>,
}

/// What [`Recent`] has for a waiter.
#[derive(Debug)]
enum Serve {
    /// The events after the waiter's seq.
    Events(Vec<EventRow>),
    /// The log has events after the waiter's seq that are no longer (or not yet) kept.
    Behind,
    /// Nothing after the waiter's seq.
    Nothing,
}

impl Recent {
    /// The log stood at `last` (read at some moment by a waiter or the hub); ignored once the
    /// hub knows where it stands. Nothing for the waiters to wake for.
    fn seen(&mut self, last: i64) -> bool {
        if self.last.is_none() {
            (self.last, self.from) = (Some(last), last);
        }
        false
    }

    /// Appends the events read after `last`, keeping the latest [`RECENT`]; true when there
    /// were any (the waiters wake).
    fn push(&mut self, rows: Vec<EventRow>) -> bool {
        let Some(new_last) = rows.last().map(|e| e.seq) else { return false };
        self.events.extend(rows);
        self.last = Some(new_last);
        while self.events.len() > RECENT {
            if let Some(dropped) = self.events.pop_front() {
                self.from = dropped.seq;
            }
        }
        true
    }

    /// At most `limit` events after `after`.
    fn after(&self, after: i64, limit: i64) -> Serve {
        match self.last {
            Some(last) if last > after && after >= self.from => {
                let start = self.events.partition_point(|e| e.seq <= after);
                Serve::Events(self.events.range(start..).take(limit.max(1) as usize).cloned().collect())
            }
            Some(last) if last > after => Serve::Behind,
            _ => Serve::Nothing,
        }
    }
}

/// Why [`Waiter::next`] returned without events.
#[derive(Debug)]
pub enum Next {
    /// At least one event after the waiter's seq, in order.
    Events(Vec<EventRow>),
    /// The deadline passed.
    Deadline,
    /// The feed is closing.
    Closed,
}

/// One long poll's or stream's place at its team's hub. Dropping the team's last waiter
/// removes the hub.
pub struct Waiter {
    shared: Arc<Shared>,
    hub: Arc<Hub>,
    recent: watch::Receiver<Recent>,
    closed: watch::Receiver<bool>,
}

impl Waiter {
    pub(super) fn new(shared: Arc<Shared>, hub: Arc<Hub>, closed: watch::Receiver<bool>) -> Waiter {
        let recent = hub.recent.subscribe();
        Waiter { shared, hub, recent, closed }
    }

    /// Tells the hub the team's last seq as the waiter's first read saw it, so the hub needs
    /// no read of its own to know where to continue.
    pub fn seen(&self, last: i64) {
        self.hub.recent.send_if_modified(|recent| recent.seen(last));
    }

    /// The team's events after `after` (at most `limit`), as soon as there is one: from the
    /// hub's recent events, or read by the waiter itself when it is further behind. Else
    /// returns at the deadline (`None`: never) or when the feed closes.
    pub async fn next(&mut self, after: i64, limit: i64, deadline: Option<Instant>) -> sqlx::Result<Next> {
        loop {
            let serve = self.recent.borrow_and_update().after(after, limit);
            match serve {
                Serve::Events(rows) => return Ok(Next::Events(rows)),
                Serve::Behind => {
                    self.shared.count_read();
                    let team = &self.hub.team;
                    let rows = self
                        .shared
                        .db
                        .read(async |conn| events::page(conn, team, after, limit).await)
                        .await?;
                    if !rows.is_empty() {
                        return Ok(Next::Events(rows));
                    }
                }
                Serve::Nothing => {}
            }
            let timer = async {
                match deadline {
                    Some(deadline) => tokio::time::sleep_until(deadline).await,
                    None => pending().await,
                }
            };
            tokio::select! {
                changed = self.recent.changed() => match changed {
                    Ok(()) => self.shared.wakeups.fetch_add(1, Ordering::Relaxed),
                    // Cannot happen: the waiter holds the hub, and so its sender.
                    Err(_) => return Ok(Next::Closed),
                },
                () = timer => return Ok(Next::Deadline),
                // Also when the feed is gone.
                () = closing(&mut self.closed) => return Ok(Next::Closed),
            };
        }
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut hubs = lock(&self.shared.hubs);
        let Some((_, waiters)) = hubs.get_mut(&self.hub.team) else { return };
        *waiters -= 1;
        // The team's last waiter: its hub goes. (Waiters are counted under the same lock, so a
        // new one either was counted here or creates a new hub.)
        if *waiters == 0 {
            hubs.remove(&self.hub.team);
            self.hub.retired.store(true, Ordering::Relaxed);
            self.hub.wake.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(seq: i64) -> EventRow {
        EventRow {
            seq,
            at: chrono::Utc::now(),
            artifact: None,
            kind: crate::resources::events::EVENT_TYPES[0].into(),
            actor: None,
            token_id: None,
            token_name: None,
            data: sqlx::types::Json(serde_json::value::RawValue::from_string("{}".into()).unwrap()),
        }
    }

    fn seqs(serve: Serve) -> Vec<i64> {
        match serve {
            Serve::Events(rows) => rows.iter().map(|e| e.seq).collect(),
            other => panic!("expected events, got {other:?}"),
        }
    }

    #[test]
    fn a_hub_serves_what_it_read_after_the_seq_a_waiter_saw() {
        let mut recent = Recent::default();
        assert!(matches!(recent.after(0, 10), Serve::Nothing), "nothing known yet");
        assert!(!recent.seen(5), "seeing the log wakes nobody");
        assert!(!recent.seen(3) && recent.last == Some(5), "the first to see it wins");
        assert!(matches!(recent.after(5, 10), Serve::Nothing));
        assert!(matches!(recent.after(9, 10), Serve::Nothing), "a waiter ahead of the log waits");
        assert!(!recent.push(Vec::new()), "an empty read wakes nobody");
        assert!(recent.push((6..=8).map(event).collect()));
        assert_eq!(seqs(recent.after(5, 10)), [6, 7, 8]);
        assert_eq!(seqs(recent.after(6, 1)), [7], "at most `limit`");
        assert!(matches!(recent.after(8, 10), Serve::Nothing));
        assert!(matches!(recent.after(4, 10), Serve::Behind), "events before what the hub read: read them");
    }

    #[test]
    fn a_hub_keeps_only_the_latest_events() {
        let mut recent = Recent::default();
        recent.seen(0);
        recent.push((1..=RECENT as i64 + 10).map(event).collect());
        assert_eq!(recent.events.len(), RECENT);
        assert_eq!(recent.from, 10);
        assert!(matches!(recent.after(9, 10), Serve::Behind));
        assert_eq!(seqs(recent.after(10, 2)), [11, 12]);
    }
}
