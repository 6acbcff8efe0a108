//! The protocol's use cases. Each write is one transaction ([`write`]): lock the artifact row,
//! load it, let `domain` decide, write the effects, build the status, append the event, commit.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::auth::{Caller, Scope, team_not_found};
use crate::domain::{self, Credits, Policy, Resolution, ReviewResult, Roster, State, Verdict, VersionKind};
use crate::error::{Error, Result, ResultExt};
use crate::metrics::Counted;
use crate::resources::*;
use crate::service::reads::{Fetched, Tagged, list_etag, team_list};
use crate::service::write::{self, Reply, Write};
use crate::service::{globs, views};
use crate::store::artifacts::{
    self as store, ArtifactUpdate, ContributorRow, Loaded, NewArtifact, NewReview, NewVersion,
};
use crate::store::events::{self, NewEvent};
use crate::store::{Db, teams};

fn artifact_not_found(key: &str) -> Error {
    Error::NotFound(format!("artifact '{key}' does not exist"))
}

/// A version insert the database refused because a credit is locked out (the trigger behind
/// R6); the domain refuses it first, so this only fires if a code path skipped it.
const LOCKED_OUT_CREDIT: &str = "versions_credit_not_locked_out";

fn locked_out_credit() -> Error {
    Error::refused(
        StatusCode::CONFLICT,
        domain::Code::AgentLockedOut.as_str(),
        "a credited agent is locked out of this artifact",
    )
}

/// An artifact's ETag: its revision and its team's, since the status lists the agents eligible
/// to revise it, which the team's roster and policy decide.
pub fn etag(revision: i64, team_revision: i64) -> String {
    format!("\"{revision}.{team_revision}\"")
}

/// A write to one artifact: its row locked for the whole transaction (R13) and its team's row
/// shared (the roster and policy hold still), then the artifact, the roster and the policy
/// loaded in one statement. The write's effects change `loaded` as they change the rows, so the
/// reply is the status this transaction leaves, without reading it again.
struct ArtifactWrite {
    write: Write,
    /// The artifact as the rules see it when the write began.
    artifact: domain::Artifact,
    loaded: Loaded,
    policy: Policy,
    roster: Roster,
}

impl ArtifactWrite {
    /// Locks and loads the artifact. A stale `If-Match` is 412 `precondition_failed` (compared
    /// strongly, as RFC 9110 asks of `If-Match`: a weak tag never matches).
    async fn open(pool: &Db, caller: &Caller, team: &str, key: &str) -> Result<ArtifactWrite> {
        let mut write = write::begin(pool, caller).await?;
        let locked = store::lock(&mut write.tx, team, key).await?;
        let snapshot = store::load(&mut write.tx, team, key).await?.ok_or_else(|| team_not_found(team))?;
        // Created since the lock found nothing: it did not exist when this write began.
        let loaded = snapshot.artifact.filter(|_| locked).ok_or_else(|| artifact_not_found(key))?;
        if let Some(expected) = &caller.if_match {
            let current = etag(loaded.artifact.revision, snapshot.team_revision);
            if expected.trim() != "*" && !expected.split(',').any(|tag| tag.trim() == current) {
                return Err(Error::refused(
                    StatusCode::PRECONDITION_FAILED,
                    "precondition_failed",
                    format!("the artifact changed: its ETag is now {current}"),
                ));
            }
        }
        Ok(ArtifactWrite {
            write,
            artifact: loaded.to_domain(),
            loaded,
            policy: snapshot.policy,
            roster: snapshot.roster,
        })
    }

    fn id(&self) -> i64 {
        self.loaded.artifact.id
    }

    /// Moves the artifact to `state`, keeping its cycle, version and pending remedy.
    async fn set_state(&mut self, state: State) -> Result<()> {
        let update = ArtifactUpdate {
            state,
            cycle: self.artifact.cycle,
            current_version: self.artifact.current.number,
            pending_remedy: self.artifact.pending_remedy.as_ref(),
        };
        let id = self.id();
        self.loaded.artifact = store::update(&mut self.write.tx, id, update).await?;
        Ok(())
    }

    /// Appends the event and commits; the reply is the status the write left.
    async fn commit(
        self,
        team: &str,
        caller: &Caller,
        event: NewEvent<'_>,
        code: StatusCode,
    ) -> Result<Reply<ArtifactStatus>> {
        let status = views::status(self.loaded, self.policy, &self.roster);
        self.write.commit(team, caller, event, (code, status)).await
    }
}

pub async fn create(
    pool: &Db,
    caller: &Caller,
    team: &str,
    input: ArtifactInput,
) -> Result<Reply<ArtifactStatus>> {
    let contributors = input.contributors.clone().unwrap_or_default();
    caller.require_credits(team, &input.author, contributors.iter().map(|c| c.agent.as_str()))?;
    let mut write = write::begin(pool, caller).await?;
    // The roster holds still until the commit (see `store::artifacts::lock`).
    if !teams::share(&mut write.tx, team).await? {
        return Err(team_not_found(team));
    }
    let team_now = store::load_team(&mut write.tx, team).await?.ok_or_else(|| team_not_found(team))?;
    domain::decide_first_version(
        &team_now.roster,
        Credits { author: &input.author, contributors: &contributors },
    )?;
    let paths = input.paths.unwrap_or_default();
    let new = NewArtifact {
        key: &input.key,
        title: &input.title,
        kind: input.kind.as_deref(),
        paths: &paths,
        author: &input.author,
    };
    let artifact = store::insert(&mut write.tx, team, &new).await?.ok_or_else(|| {
        Error::refused(
            StatusCode::CONFLICT,
            "artifact_exists",
            format!("artifact '{}' already exists", input.key),
        )
    })?;
    let version = NewVersion {
        number: 1,
        cycle: 1,
        author: &input.author,
        contributors: &contributors,
        git_ref: input.git_ref.as_deref(),
        summary: input.summary.as_deref(),
    };
    let current = store::insert_version(&mut write.tx, team, artifact.id, &version)
        .await
        .on_constraint(LOCKED_OUT_CREDIT, locked_out_credit)?;
    let loaded = Loaded {
        artifact,
        current,
        contributors: contributor_rows(&contributors),
        cycle_reviews: Vec::new(),
        lockouts: Vec::new(),
        assignment: None,
        escalation: None,
    };
    let status = views::status(loaded, team_now.policy, &team_now.roster);
    let data = json!({ "version": 1, "author": input.author, "contributors": input.contributors, "title": input.title });
    let event =
        NewEvent { artifact: Some(&input.key), kind: "artifact.created", actor: Some(&input.author), data };
    write.commit(team, caller, event, (StatusCode::CREATED, status)).await
}

pub async fn submit_version(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    input: VersionInput,
) -> Result<Reply<Version>> {
    let contributors = input.contributors.clone().unwrap_or_default();
    caller.require_credits(team, &input.author, contributors.iter().map(|c| c.agent.as_str()))?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let credits = Credits { author: &input.author, contributors: &contributors };
    let outcome = domain::decide_version(&w.artifact, &w.roster, w.policy, credits)?;
    let id = w.id();
    let version = NewVersion {
        number: outcome.number,
        cycle: outcome.cycle,
        author: &input.author,
        contributors: &contributors,
        git_ref: input.git_ref.as_deref(),
        summary: input.summary.as_deref(),
    };
    let tx = &mut w.write.tx;
    let row = store::insert_version(tx, team, id, &version)
        .await
        .on_constraint(LOCKED_OUT_CREDIT, locked_out_credit)?;
    if outcome.kind == VersionKind::Revision {
        store::end_assignment(tx, id, "version").await?;
    }
    // A supersede keeps the cycle's pending remedy for the record; any other version ends it.
    let pending = w.artifact.pending_remedy.as_ref().filter(|_| outcome.kind == VersionKind::Supersede);
    let update = ArtifactUpdate {
        state: State::InReview,
        cycle: outcome.cycle,
        current_version: outcome.number,
        pending_remedy: pending,
    };
    store::update(tx, id, update).await?;
    let version = views::version(row, &contributor_rows(&contributors), Vec::new());
    let kind = match outcome.kind {
        VersionKind::Supersede => "supersede",
        VersionKind::Revision => "revision",
        VersionKind::NewCycle => "new_cycle",
        VersionKind::First => "first",
    };
    let data = json!({ "version": outcome.number, "cycle": outcome.cycle, "kind": kind, "author": input.author,
                       "contributors": input.contributors, "state": State::InReview.as_str() });
    let event = NewEvent { artifact: Some(key), kind: "version.submitted", actor: Some(&input.author), data };
    w.write.commit(team, caller, event, (StatusCode::CREATED, version)).await
}

pub async fn review(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    number: i32,
    input: ReviewInput,
) -> Result<Reply<ReviewOutcome>> {
    caller.require_actor(team, &input.reviewer)?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let request = domain::ReviewRequest {
        reviewer: &input.reviewer,
        version: number,
        verdict: input.verdict,
        git_ref: input.git_ref.as_deref(),
        reason: input.reason.as_deref(),
        remedy: input.remedy.as_ref(),
        evidence: input.evidence.as_ref(),
    };
    let outcome = domain::decide_review(&w.artifact, &w.roster, w.policy, request)?;
    let (id, cycle, verdict) = (w.id(), w.artifact.cycle, input.verdict);
    // Counted once the write commits.
    let mut counted = vec![Counted::Review(verdict.as_str())];
    let tx = &mut w.write.tx;
    let row = store::insert_review(
        tx,
        team,
        id,
        NewReview {
            number,
            reviewer: &input.reviewer,
            verdict,
            kind: outcome.kind,
            git_ref: input.git_ref.as_deref(),
            grounds: input.grounds,
            reason: input.reason.as_deref(),
            remedy: input.remedy.as_ref(),
            evidence: input.evidence.as_ref(),
        },
    )
    .await
    .on_constraint("reviews_one_per_reviewer", || {
        Error::refused(
            StatusCode::CONFLICT,
            "duplicate_review",
            "this reviewer already gave a verdict on this version",
        )
    })?;
    let state = outcome.next_state();
    let mut data = json!({ "version": number, "reviewer": input.reviewer, "verdict": verdict,
                           "kind": outcome.kind, "state": state });
    match &outcome.result {
        ReviewResult::ApprovalRecorded { approvals, required } => {
            w.loaded.artifact = store::touch(tx, id).await?;
            data["approvals"] = json!(approvals);
            data["required_approvals"] = json!(required);
        }
        ReviewResult::Approved => {
            store::clear_lockouts(tx, id).await?;
            w.loaded.lockouts.clear();
            let update = ArtifactUpdate { state, cycle, current_version: number, pending_remedy: None };
            w.loaded.artifact = store::update(tx, id, update).await?;
        }
        ReviewResult::Rejected { lockouts, pending, deadlocked } => {
            let locked_out = store::insert_lockouts(tx, team, (id, key), cycle, &row, lockouts).await?;
            counted.push(Counted::LockoutsCreated(locked_out.len() as u64));
            w.loaded.lockouts.extend(locked_out);
            w.loaded.lockouts.sort_by(|a, b| a.agent_id.cmp(&b.agent_id));
            let update =
                ArtifactUpdate { state, cycle, current_version: number, pending_remedy: Some(pending) };
            w.loaded.artifact = store::update(tx, id, update).await?;
            data["lockouts"] = json!(lockouts);
            data["reason"] = json!(pending.reason);
            data["remedy"] = json!(input.remedy);
            if *deadlocked {
                let details = escalation_details(tx, team, key, cycle, &w.loaded.lockouts).await?;
                w.loaded.escalation = Some(store::open_escalation(tx, team, (id, key), details).await?);
                counted.push(Counted::DeadlockOpened);
                data["deadlocked"] = json!(true);
            }
        }
    }
    w.loaded.cycle_reviews.push(row.clone());
    let kind = match verdict {
        Verdict::Approve => "review.approved",
        Verdict::Reject => "review.rejected",
    };
    let event = NewEvent { artifact: Some(key), kind, actor: Some(&input.reviewer), data };
    counted.into_iter().for_each(|c| w.write.count(c));
    let status = views::status(w.loaded, w.policy, &w.roster);
    let outcome = ReviewOutcome { review: views::review(row), artifact: status };
    w.write.commit(team, caller, event, (StatusCode::CREATED, outcome)).await
}

/// R9: what the user needs to decide: every version of the cycle with its authors, the
/// rejections, and the lockouts.
async fn escalation_details(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
    cycle: i32,
    lockouts: &[store::LockoutRow],
) -> Result<Value> {
    let versions = store::versions(conn, team, key, 0, i64::MAX).await?.unwrap_or_default();
    let versions: Vec<Version> =
        versions.into_iter().filter(|v| v.version.cycle == cycle).map(views::version_record).collect();
    let rejections: Vec<Value> = versions
        .iter()
        .flat_map(|v| v.reviews.iter().filter(|r| r.verdict == Verdict::Reject))
        .map(|r| json!({ "version": r.version, "reviewer": r.reviewer, "reason": r.reason, "remedy": r.remedy }))
        .collect();
    let lockouts: Vec<Lockout> = lockouts.iter().cloned().map(views::lockout).collect();
    let authors: Vec<&str> = versions.iter().map(|v| v.author.as_str()).collect();
    Ok(json!({ "versions": versions, "authors": authors, "rejections": rejections, "lockouts": lockouts }))
}

pub async fn assign(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    input: AssignmentInput,
) -> Result<Reply<ArtifactStatus>> {
    caller.require(team, Scope::Coordinator)?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    domain::decide_assignment(&w.artifact, &w.roster, w.policy, &input.agent)?;
    let (id, cycle) = (w.id(), w.artifact.cycle);
    let assignment = store::insert_assignment(
        &mut w.write.tx,
        team,
        id,
        cycle,
        &input.agent,
        input.note.as_deref(),
        "coordinator",
    )
    .await
    .on_constraint("assignments_one_active", || {
        Error::refused(StatusCode::CONFLICT, "invalid_state", "the artifact already has an active assignment")
    })?;
    w.loaded.assignment = Some(assignment);
    w.set_state(State::InRevision).await?;
    let data = json!({ "agent": input.agent, "note": input.note, "state": State::InRevision.as_str() });
    let event = NewEvent { artifact: Some(key), kind: "assignment.created", actor: Some(&input.agent), data };
    w.commit(team, caller, event, StatusCode::CREATED).await
}

pub async fn release(pool: &Db, caller: &Caller, team: &str, key: &str) -> Result<Reply<ArtifactStatus>> {
    caller.require(team, Scope::Coordinator)?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let agent = domain::decide_release(&w.artifact)?;
    let id = w.id();
    store::end_assignment(&mut w.write.tx, id, "released").await?;
    w.loaded.assignment = None;
    w.set_state(State::ChangesRequested).await?;
    let data = json!({ "agent": agent, "state": State::ChangesRequested.as_str() });
    let event = NewEvent { artifact: Some(key), kind: "assignment.released", actor: Some(&agent), data };
    w.commit(team, caller, event, StatusCode::OK).await
}

pub async fn resolve(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    input: ResolutionInput,
) -> Result<Reply<ArtifactStatus>> {
    caller.require(team, Scope::User)?;
    let resolution = match (input.action, input.agent.as_deref()) {
        (ResolutionAction::Assign, Some(agent)) => Resolution::Assign(agent),
        (ResolutionAction::Assign, None) => {
            return Err(Error::invalid("agent", "an `assign` resolution names the agent"));
        }
        (ResolutionAction::Abandon, None) => Resolution::Abandon,
        (ResolutionAction::Abandon, Some(_)) => {
            return Err(Error::invalid("agent", "an `abandon` resolution names no agent"));
        }
    };
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let state = domain::decide_resolution(&w.artifact, &w.roster, w.policy, resolution)?;
    let (id, cycle) = (w.id(), w.artifact.cycle);
    if let Resolution::Assign(agent) = resolution {
        let assignment =
            store::insert_assignment(&mut w.write.tx, team, id, cycle, agent, Some(&input.reason), "user")
                .await?;
        w.loaded.assignment = Some(assignment);
    }
    w.set_state(state).await?;
    let action = if input.action == ResolutionAction::Assign { "assign" } else { "abandon" };
    let resolution =
        json!({ "action": action, "agent": input.agent, "reason": input.reason, "by": caller.token_name });
    store::resolve_escalation(&mut w.write.tx, id, &resolution).await?;
    w.loaded.escalation = None;
    w.write.count(Counted::DeadlockResolved(action));
    let data =
        json!({ "action": action, "agent": input.agent, "reason": input.reason, "state": state.as_str() });
    let event =
        NewEvent { artifact: Some(key), kind: "escalation.resolved", actor: input.agent.as_deref(), data };
    w.commit(team, caller, event, StatusCode::OK).await
}

pub async fn lift(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    agent: &str,
    reason: &str,
) -> Result<Reply<ArtifactStatus>> {
    caller.require(team, Scope::User)?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    domain::decide_lift(&w.artifact, agent)?;
    let id = w.id();
    store::lift_lockout(&mut w.write.tx, id, agent, reason).await?;
    w.loaded.lockouts.retain(|l| l.agent_id != agent);
    w.loaded.artifact = store::touch(&mut w.write.tx, id).await?;
    let data = json!({ "agent": agent, "reason": reason });
    let event = NewEvent { artifact: Some(key), kind: "lockout.lifted", actor: Some(agent), data };
    w.commit(team, caller, event, StatusCode::OK).await
}

/// The artifact's status from one statement. When the caller holds a copy, `held` says whether
/// an ETag is the one it holds; if so, only the revisions are read.
pub async fn get(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<ArtifactStatus>> {
    caller.require(team, Scope::Read)?;
    pool.read(async |conn| {
        if let Some(held) = held {
            let (revision, team_revision) =
                store::revisions(conn, team, key).await?.ok_or_else(|| team_not_found(team))?;
            let current = etag(revision.ok_or_else(|| artifact_not_found(key))?, team_revision);
            if held(&current) {
                return Ok(Fetched::Unchanged(current));
            }
        }
        let snapshot = store::load(conn, team, key).await?.ok_or_else(|| team_not_found(team))?;
        let loaded = snapshot.artifact.ok_or_else(|| artifact_not_found(key))?;
        let etag = etag(loaded.artifact.revision, snapshot.team_revision);
        Ok(Fetched::Full(Tagged { etag, body: views::status(loaded, snapshot.policy, &snapshot.roster) }))
    })
    .await
}

/// A page of the team's artifacts, with the ETag of the team's lists.
pub async fn list(
    pool: &Db,
    caller: &Caller,
    team: &str,
    filter: (Option<&str>, Option<&str>, Option<&str>),
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<ArtifactSummary>>> {
    let (state, agent, cursor) = filter;
    team_list(pool, caller, team, held, async |conn| {
        let rows = store::list(conn, team, state, agent, cursor, limit).await?;
        Ok(rows.into_iter().map(views::summary).collect())
    })
    .await
}

/// A page of the artifact's versions with their contributors and reviews, from one statement.
pub async fn versions(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    after: i32,
    limit: i64,
) -> Result<Vec<Version>> {
    caller.require(team, Scope::Read)?;
    let records = pool.read(async |conn| store::versions(conn, team, key, after, limit).await).await?;
    Ok(records.ok_or_else(|| artifact_not_found(key))?.into_iter().map(views::version_record).collect())
}

pub async fn version(pool: &Db, caller: &Caller, team: &str, key: &str, number: i32) -> Result<Version> {
    // Saturating: a path may carry any i32, and `i32::MIN - 1` would overflow.
    let after = number.saturating_sub(1);
    versions(pool, caller, team, key, after, 1)
        .await?
        .into_iter()
        .find(|v| v.number == number)
        .ok_or_else(|| Error::NotFound(format!("version {number} of '{key}' does not exist")))
}

fn contributor_rows(contributors: &[domain::Contributor]) -> Vec<ContributorRow> {
    contributors.iter().map(|c| ContributorRow { agent_id: c.agent.clone(), role: c.role }).collect()
}

/// The team's active lockouts, with the ETag of the team's lists.
pub async fn lockouts(
    pool: &Db,
    caller: &Caller,
    team: &str,
    agent: Option<&str>,
    artifact: Option<&str>,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Lockout>>> {
    team_list(pool, caller, team, held, async |conn| {
        if let Some(key) = artifact
            && !store::exists(conn, team, key).await?
        {
            return Err(artifact_not_found(key));
        }
        let rows = store::active_lockouts(conn, team, artifact, agent).await?;
        Ok(rows.into_iter().map(views::lockout).collect())
    })
    .await
}

/// A page of the team's open escalations, with the ETag of the team's lists.
pub async fn escalations(
    pool: &Db,
    caller: &Caller,
    team: &str,
    after: i64,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Escalation>>> {
    team_list(pool, caller, team, held, async |conn| {
        let rows = store::open_escalations(conn, team, after, limit).await?;
        Ok(rows.into_iter().map(views::escalation).collect())
    })
    .await
}

/// May the agent write? For an artifact: would a version it authors be accepted now (R5, R6,
/// R11)? For file paths: is it locked out of an artifact whose globs match one (R6)? Answered
/// from one statement.
pub async fn check(pool: &Db, caller: &Caller, team: &str, input: CheckInput) -> Result<CheckResult> {
    match caller.scope {
        // An agent's token asks only about itself.
        Scope::Agent => caller.require_actor(team, &input.agent)?,
        _ => caller.require(team, Scope::Read)?,
    }
    if input.artifact.is_none() && input.paths.is_none() {
        return Err(Error::invalid("artifact", "name an artifact, file paths, or both"));
    }
    let paths = input.paths.as_deref().unwrap_or_default();
    // The team first, whatever is asked: a path check of a team that does not exist is 404,
    // not `allowed` (the admin token reaches every team id).
    let snapshot = pool
        .read(async |conn| store::load_check(conn, team, input.artifact.as_deref(), &input.agent).await)
        .await?
        .ok_or_else(|| team_not_found(team))?;
    // An agent that may not author at all is refused whatever it would write.
    if let Err(refusal) = domain::decide_author(snapshot.roster.get(&input.agent), &input.agent) {
        let denial = Denial { artifact: None, code: refusal.code.as_str().into(), detail: refusal.detail };
        return Ok(CheckResult { allowed: false, denials: vec![denial] });
    }
    let mut denials = Vec::new();
    if let Some(key) = &input.artifact {
        let (roster, policy) = (&snapshot.roster, snapshot.policy);
        let refusal = match &snapshot.artifact {
            Some(loaded) => domain::decide_write(&loaded.to_domain(), roster, policy, &input.agent).err(),
            // Writing a new artifact is writing its first version.
            None => domain::decide_first_version(roster, Credits { author: &input.agent, contributors: &[] })
                .err(),
        };
        denials.extend(refusal.map(|r| Denial {
            artifact: Some(key.clone()),
            code: r.code.as_str().into(),
            detail: r.detail,
        }));
    }
    for locked in &snapshot.locked_paths {
        let matched = locked
            .paths
            .iter()
            .filter_map(|g| globs::matcher(g))
            .find_map(|g| paths.iter().find(|p| g.is_match(p)));
        if let Some(path) = matched {
            denials.push(Denial {
                artifact: Some(locked.artifact.clone()),
                code: domain::Code::AgentLockedOut.as_str().into(),
                detail: format!(
                    "'{path}' belongs to artifact '{}', which agent '{}' is locked out of until a revision is approved",
                    locked.artifact, input.agent
                ),
            });
        }
    }
    Ok(CheckResult { allowed: denials.is_empty(), denials })
}

/// A page of the team's events after `after` (the team must exist).
pub async fn events(pool: &Db, caller: &Caller, team: &str, after: i64, limit: i64) -> Result<Vec<Event>> {
    let fetched = tagged_events(pool, caller, team, after, limit, None::<fn(&str) -> bool>).await?;
    Ok(match fetched {
        Fetched::Full(page) => page.body,
        Fetched::Unchanged(_) => Vec::new(),
    })
}

/// A page of the team's events after `after`, with the team's last seq as its ETag, from one
/// statement. When the caller holds a copy, `held` says whether an ETag is the one it holds,
/// and if so only the seq is read.
pub async fn tagged_events(
    pool: &Db,
    caller: &Caller,
    team: &str,
    after: i64,
    limit: i64,
    held: Option<impl FnOnce(&str) -> bool>,
) -> Result<Fetched<Vec<Event>>> {
    caller.require(team, Scope::Read)?;
    pool.read(async |conn| {
        if let Some(held) = held {
            let seq = teams::last_event_seq(conn, team).await?.ok_or_else(|| team_not_found(team))?;
            let etag = list_etag(seq);
            if held(&etag) {
                return Ok(Fetched::Unchanged(etag));
            }
        }
        let (seq, rows) =
            events::tagged_page(conn, team, after, limit).await?.ok_or_else(|| team_not_found(team))?;
        let body = rows.into_iter().map(crate::feed::event).collect();
        Ok(Fetched::Full(Tagged { etag: list_etag(seq), body }))
    })
    .await
}
