//! The lockout index: per replica, in memory, what a check needs of a team (its artifacts'
//! globs, states, assignees and active lockouts, the waza reviewer to exclude, the roster's
//! authoring flags and aliases), so that `POST /checks` and unchanged conditional polls are
//! answered without the database. See docs/index.md.
//!
//! A team is loaded on its first check (or conditional poll), from one snapshot, and kept current
//! from the event log: the listener (`store::listener`) tells of each notification of the team;
//! its task then reads, in one snapshot, the team's last seq, the artifacts the events after the
//! seq it holds name (re-read whole: an event does not carry all a check needs), and the roster,
//! and swaps them in. The index answers only while it knows itself current: the listener
//! listens, and it holds every seq this replica knows committed for the team (each
//! notification's, and each write's of this replica); a check with `min_seq` also needs that
//! seq applied, and waits for it at most [`IndexSettings::wait`]. Otherwise the database
//! answers, as before.
//! Memory is bounded: teams idle for [`IndexSettings::idle`] are dropped, and past
//! [`IndexSettings::budget`] entries the least recently used teams go first.

mod team;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, watch};

use self::team::{Artifact, TeamState};
use crate::app::check::decide::Question;
use crate::app::globs::Coverage;
pub use crate::config::IndexSettings;
use crate::metrics::IndexGauges;
use crate::resources::CheckResult;
use crate::store::Db;
use crate::store::artifacts as store;
use crate::store::listener::{Feed, Follower};

/// Past this many artifacts named by the events a team's task has not applied yet, it reads the
/// team whole again instead.
const REREAD_ALL: usize = 10_000;

/// The replica's index. Cloning shares it; [`Index::disabled`] answers nothing.
#[derive(Clone)]
pub struct Index(Option<Shared>);

#[derive(Clone)]
struct Shared {
    inner: Arc<Inner>,
    feed: Feed,
}

struct Inner {
    db: Db,
    settings: IndexSettings,
    teams: Mutex<HashMap<Arc<str>, Arc<Team>>>,
    /// The listener listens: notifications arrive.
    listening: AtomicBool,
    gauges: Arc<IndexGauges>,
    started: Once,
    /// What `Team::used` counts from.
    epoch: Instant,
}

/// A team's place in the index, with the task that keeps its state.
struct Team {
    id: Arc<str>,
    /// `None` until loaded, and when the team does not exist or is over the budget.
    state: RwLock<Option<TeamState>>,
    /// Notifications that named no seq (and reconnections of the listener) heard for the team.
    notified: AtomicU64,
    /// The highest seq this replica knows committed for the team (its own writes, and the
    /// notifications): the state is current only at or past it.
    known: AtomicI64,
    /// Milliseconds after `Inner::epoch` of the last use.
    used: AtomicU64,
    /// Wakes the task to read what changed.
    wake: Notify,
    /// Changes after each read, for checks waiting for a `min_seq`.
    applied: watch::Sender<u64>,
    /// Dropped from the index: answers nothing more; its task ends.
    retired: AtomicBool,
    /// Held more entries than the whole budget: the database answers for it until it is dropped.
    oversized: AtomicBool,
    entries: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Index {
    /// An index on the pool's database, fed by `feed` (started at the first check).
    pub fn new(db: Db, feed: &Feed, settings: IndexSettings, gauges: Arc<IndexGauges>) -> Index {
        if !settings.enabled {
            return Index::disabled();
        }
        let inner = Arc::new(Inner {
            db,
            settings,
            teams: Mutex::default(),
            listening: AtomicBool::new(false),
            gauges,
            started: Once::new(),
            epoch: Instant::now(),
        });
        feed.follow_all(inner.clone());
        Index(Some(Shared { inner, feed: feed.clone() }))
    }

    /// An index that answers nothing: every check asks the database.
    pub fn disabled() -> Index {
        Index(None)
    }

    pub fn is_enabled(&self) -> bool {
        self.0.is_some()
    }

    /// The team's place, created (and its load started) on first use; `None` when the index is
    /// off.
    fn team(&self, team: &str) -> Option<(&Arc<Inner>, Arc<Team>)> {
        let Shared { inner, feed } = self.0.as_ref()?;
        inner.started.call_once(|| {
            feed.start();
            tokio::spawn(sweep(Arc::downgrade(inner)));
        });
        let team = inner.team(team);
        team.used.store(inner.now(), Ordering::Relaxed);
        Some((inner, team))
    }

    /// The answer to a check from the index, when it is current (and at or past `min_seq`,
    /// waiting for that at most [`IndexSettings::wait`]); `None`: ask the database.
    pub async fn check(
        &self,
        team: &str,
        question: &Question<'_>,
        coverage: &Coverage,
    ) -> Option<CheckResult> {
        let (inner, team) = self.team(team)?;
        let deadline = question.min_seq.map(|_| tokio::time::Instant::now() + inner.settings.wait);
        let mut applied = team.applied.subscribe();
        loop {
            {
                let state = team.state.read().unwrap_or_else(PoisonError::into_inner);
                if let Some(state) = state.as_ref().filter(|s| inner.current(&team, s))
                    && question.min_seq.is_none_or(|min| state.seq >= min)
                {
                    let answer = state.answer(question, coverage);
                    inner.gauges.answered_by_index.fetch_add(1, Ordering::Relaxed);
                    return Some(answer);
                }
            }
            // Without `min_seq` the database answers at once; with it, while the listener
            // listens, the task will read what was notified.
            let deadline = deadline?;
            if !inner.listening.load(Ordering::SeqCst) || team.oversized.load(Ordering::Relaxed) {
                return None;
            }
            tokio::select! {
                changed = applied.changed() => changed.ok()?,
                () = tokio::time::sleep_until(deadline) => return None,
            }
        }
    }

    /// Counts a check the database answered (how long it took is for a later histogram).
    pub fn answered_by_database(&self, _took: Duration) {
        if let Some(Shared { inner, .. }) = &self.0 {
            inner.gauges.answered_by_database.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The artifact's current ETag, when the index is current for the team; `Some(None)` when the
    /// artifact does not exist. `None`: ask the database.
    pub fn artifact_etag(&self, team: &str, key: &str) -> Option<Option<String>> {
        let (inner, team) = self.team(team)?;
        let state = team.state.read().unwrap_or_else(PoisonError::into_inner);
        let state = state.as_ref().filter(|s| inner.current(&team, s))?;
        Some(state.artifact_etag(key))
    }

    /// The team's last event seq (what the ETag of its lists is made of, `reads::list_etag`)
    /// when the index is current for the team.
    pub fn list_seq(&self, team: &str) -> Option<i64> {
        let (inner, team) = self.team(team)?;
        let state = team.state.read().unwrap_or_else(PoisonError::into_inner);
        state.as_ref().filter(|s| inner.current(&team, s)).map(|s| s.seq)
    }

    /// This replica committed `seq` for the team: the index answers for it only once it holds it.
    pub fn committed(&self, team: &str, seq: i64) {
        let Some(Shared { inner, .. }) = &self.0 else { return };
        if let Some(team) = lock(&inner.teams).get(team) {
            team.known.fetch_max(seq, Ordering::SeqCst);
            team.wake.notify_one();
        }
    }

    /// Teams held, and whether the team `team` is held and current: for tests and operators.
    pub fn is_current(&self, team: &str) -> bool {
        let Some(Shared { inner, .. }) = &self.0 else { return false };
        let Some(team) = lock(&inner.teams).get(team).cloned() else { return false };
        let state = team.state.read().unwrap_or_else(PoisonError::into_inner);
        state.as_ref().is_some_and(|s| inner.current(&team, s))
    }

    /// The seq the index holds for the team, if it holds it.
    pub fn seq(&self, team: &str) -> Option<i64> {
        let Shared { inner, .. } = self.0.as_ref()?;
        let team = lock(&inner.teams).get(team).cloned()?;
        let state = team.state.read().unwrap_or_else(PoisonError::into_inner);
        state.as_ref().map(|s| s.seq)
    }

    /// Drops the teams idle for `idle` and, past the budget, the least recently used; what the
    /// background sweep does every [`IndexSettings::idle`] / 4.
    pub fn sweep_now(&self, idle: Duration) {
        if let Some(Shared { inner, .. }) = &self.0 {
            inner.sweep(idle);
        }
    }
}

impl Inner {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn team(self: &Arc<Self>, id: &str) -> Arc<Team> {
        let mut teams = lock(&self.teams);
        if let Some(team) = teams.get(id) {
            return team.clone();
        }
        let id: Arc<str> = id.into();
        let team = Arc::new(Team {
            id: id.clone(),
            state: RwLock::new(None),
            notified: AtomicU64::new(0),
            known: AtomicI64::new(0),
            used: AtomicU64::new(self.now()),
            wake: Notify::new(),
            applied: watch::channel(0).0,
            retired: AtomicBool::new(false),
            oversized: AtomicBool::new(false),
            entries: AtomicU64::new(0),
        });
        teams.insert(id, team.clone());
        self.gauges.teams.store(teams.len() as u64, Ordering::Relaxed);
        drop(teams);
        team.wake.notify_one();
        tokio::spawn(follow(Arc::downgrade(self), team.clone()));
        team
    }

    /// Whether `state` is the team's latest as far as this replica knows.
    fn current(&self, team: &Team, state: &TeamState) -> bool {
        self.listening.load(Ordering::SeqCst) && !team.retired.load(Ordering::SeqCst) && team.holds(state)
    }

    fn sweep(&self, idle: Duration) {
        let now = self.now();
        let idle = idle.as_millis() as u64;
        let mut teams = lock(&self.teams);
        let gone: Vec<Arc<str>> = teams
            .values()
            .filter(|t| now.saturating_sub(t.used.load(Ordering::Relaxed)) >= idle)
            .map(|t| t.id.clone())
            .collect();
        for id in gone {
            if let Some(team) = teams.remove(&id) {
                team.retire();
            }
        }
        self.within_budget(&mut teams, None);
    }

    /// Drops the least recently used teams (never `keep`) while the entries exceed the budget.
    fn within_budget(&self, teams: &mut HashMap<Arc<str>, Arc<Team>>, keep: Option<&str>) {
        let mut total: u64 = teams.values().map(|t| t.entries.load(Ordering::Relaxed)).sum();
        if total > self.settings.budget {
            let mut by_use: Vec<Arc<Team>> =
                teams.values().filter(|t| Some(&*t.id) != keep).cloned().collect();
            by_use.sort_by_key(|t| t.used.load(Ordering::Relaxed));
            for team in by_use {
                if total <= self.settings.budget {
                    break;
                }
                total -= team.entries.load(Ordering::Relaxed);
                teams.remove(&team.id);
                team.retire();
            }
        }
        self.gauges.teams.store(teams.len() as u64, Ordering::Relaxed);
        self.gauges.entries.store(total, Ordering::Relaxed);
    }
}

impl Team {
    /// Whether `state` holds all the team's task was told of: every notification that named no
    /// seq, and every seq known committed.
    fn holds(&self, state: &TeamState) -> bool {
        state.synced == self.notified.load(Ordering::SeqCst) && state.seq >= self.known.load(Ordering::SeqCst)
    }

    fn retire(&self) {
        self.retired.store(true, Ordering::SeqCst);
        self.entries.store(0, Ordering::Relaxed);
        *self.state.write().unwrap_or_else(PoisonError::into_inner) = None;
        self.wake.notify_one();
        self.applied.send_modify(|n| *n += 1);
    }
}

impl Follower for Inner {
    fn notified(&self, team: &str, seq: Option<i64>) {
        if let Some(team) = lock(&self.teams).get(team) {
            match seq {
                // Committed: the state is current only once it holds it, as for this replica's
                // own writes; a state that already does stays current.
                Some(seq) => {
                    team.known.fetch_max(seq, Ordering::SeqCst);
                }
                // Which seq is unknown: whatever it announced is read again.
                None => {
                    team.notified.fetch_add(1, Ordering::SeqCst);
                }
            }
            team.wake.notify_one();
        }
    }

    fn listening(&self, listening: bool) {
        if listening {
            // What was committed while nobody listened is unknown: every team reads again,
            // and is not current until it has.
            for team in lock(&self.teams).values() {
                team.notified.fetch_add(1, Ordering::SeqCst);
                team.wake.notify_one();
            }
        }
        self.listening.store(listening, Ordering::SeqCst);
    }
}

/// What one snapshot read for a team's task.
enum Read {
    /// The team does not exist.
    Gone,
    /// The team has more artifacts than the whole budget: not read.
    Oversized(u64),
    /// The team whole.
    All(store::TeamRecord, Vec<Artifact>),
    /// What changed after the seq the state holds: the keys the events named, and those
    /// artifacts re-read.
    Changes(store::TeamRecord, Vec<String>, Vec<Artifact>),
}

/// A team's task: reads what changed on each wake-up, until the team is dropped.
async fn follow(inner: Weak<Inner>, team: Arc<Team>) {
    loop {
        tokio::select! {
            () = team.wake.notified() => {}
            // To notice an index that is gone.
            () = tokio::time::sleep(Duration::from_secs(30)) => {}
        }
        if team.retired.load(Ordering::SeqCst) {
            return;
        }
        let Some(inner) = inner.upgrade() else { return };
        if team.oversized.load(Ordering::Relaxed) {
            continue;
        }
        // A notification of a seq the state holds already (this replica's own write, applied
        // on its hand-over) needs no read.
        if team.state.read().unwrap_or_else(PoisonError::into_inner).as_ref().is_some_and(|s| team.holds(s)) {
            continue;
        }
        if let Err(e) = catch_up(&inner, &team).await {
            tracing::warn!(error = %e, team = %team.id, "the lockout index could not read the team; the database answers its checks meanwhile");
            tokio::time::sleep(Duration::from_secs(1)).await;
            team.wake.notify_one();
        }
    }
}

/// Reads what changed since the state's seq (or the team whole) in one snapshot, and applies it.
async fn catch_up(inner: &Inner, team: &Team) -> sqlx::Result<()> {
    // Read before the snapshot: a notification heard after this is read again.
    let heard = team.notified.load(Ordering::SeqCst);
    let since = team.state.read().unwrap_or_else(PoisonError::into_inner).as_ref().map(|s| s.seq);
    let id = &*team.id;
    let budget = inner.settings.budget;
    let read = inner
        .db
        .snapshot(async |conn| {
            let Some(record) = store::index_team(conn, id).await? else {
                return Ok::<_, sqlx::Error>(Read::Gone);
            };
            let whole = async |conn: &mut sqlx::PgConnection, record: store::TeamRecord| {
                let size = store::index_size(conn, id).await?.max(0) as u64;
                if size + (record.roster.0.len() + record.aliases.len()) as u64 > budget {
                    return Ok(Read::Oversized(size));
                }
                let mut all = Vec::with_capacity(size as usize);
                store::index_artifacts(conn, id, None, |l| all.push(Artifact::from_loaded(&l))).await?;
                Ok(Read::All(record, all))
            };
            let Some(since) = since else {
                return whole(conn, record).await;
            };
            if record.seq == since {
                return Ok(Read::Changes(record, Vec::new(), Vec::new()));
            }
            let (keys, _) = store::index_changes(conn, id, since).await?;
            if keys.len() > REREAD_ALL {
                return whole(conn, record).await;
            }
            let mut changed = Vec::with_capacity(keys.len());
            store::index_artifacts(conn, id, Some(&keys), |l| changed.push(Artifact::from_loaded(&l)))
                .await?;
            Ok(Read::Changes(record, keys, changed))
        })
        .await?;
    let entries = {
        let mut state = team.state.write().unwrap_or_else(PoisonError::into_inner);
        if team.retired.load(Ordering::SeqCst) {
            return Ok(());
        }
        match (read, state.as_mut()) {
            (Read::Gone, _) => *state = None,
            (Read::Oversized(size), _) => {
                *state = None;
                team.oversized.store(true, Ordering::Relaxed);
                tracing::warn!(team = %team.id, artifacts = size, budget, "a team larger than the lockout index's budget: the database answers its checks");
            }
            (Read::All(record, all), _) => *state = Some(TeamState::new(record, all, heard)),
            (Read::Changes(record, keys, changed), Some(held)) => held.apply(record, &keys, changed, heard),
            // Dropped meanwhile (over the budget): read it whole next time.
            (Read::Changes(..), None) => {}
        }
        state.as_ref().map_or(0, TeamState::entries) as u64
    };
    team.entries.store(entries, Ordering::Relaxed);
    if entries > inner.settings.budget {
        tracing::warn!(team = %team.id, entries, budget = inner.settings.budget, "a team larger than the lockout index's budget: the database answers its checks");
        team.oversized.store(true, Ordering::Relaxed);
        team.entries.store(0, Ordering::Relaxed);
        *team.state.write().unwrap_or_else(PoisonError::into_inner) = None;
    }
    inner.within_budget(&mut lock(&inner.teams), Some(&team.id));
    team.applied.send_modify(|n| *n += 1);
    Ok(())
}

/// Drops idle teams every quarter of [`IndexSettings::idle`], while the index exists.
async fn sweep(inner: Weak<Inner>) {
    loop {
        let every = match inner.upgrade() {
            Some(inner) => (inner.settings.idle / 4).max(Duration::from_millis(100)),
            None => return,
        };
        tokio::time::sleep(every).await;
        let Some(inner) = inner.upgrade() else { return };
        inner.sweep(inner.settings.idle);
    }
}
