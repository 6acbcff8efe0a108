//! The protocol's use cases. Each write is one transaction ([`write`]): lock the artifact row,
//! load it, let `domain` decide, write the effects, build the status, append the event, commit.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::auth::{Caller, Scope, team_not_found};
use crate::domain::{
    self, Credits, Evidence, Policy, Remedy, RemedyAction, Resolution, ReviewResult, State, Verdict,
    VersionKind,
};
use crate::error::{Error, Result, ResultExt};
use crate::metrics::Counted;
use crate::resources::*;
use crate::service::globs;
use crate::service::write::{self, Reply, Write};
use crate::store::artifacts::{self as store, ArtifactUpdate, Loaded, NewArtifact, NewReview, NewVersion};
use crate::store::events::NewEvent;
use crate::store::{Db, agents, teams};

/// The team's policy and roster, read in the caller's transaction.
async fn team_context(conn: &mut PgConnection, team: &str) -> Result<(Policy, domain::Roster)> {
    let policy = teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?.policy();
    Ok((policy, agents::roster(conn, team).await?))
}

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

/// A write to one artifact: its row locked for the whole transaction (R13), the artifact as the
/// rules see it, and the team's policy and roster.
struct ArtifactWrite {
    write: Write,
    id: i64,
    artifact: domain::Artifact,
    policy: Policy,
    roster: domain::Roster,
}

impl ArtifactWrite {
    /// Locks and loads the artifact. A stale `If-Match` is 412 `precondition_failed` (compared
    /// strongly, as RFC 9110 asks of `If-Match`: a weak tag never matches).
    async fn open(pool: &Db, caller: &Caller, team: &str, key: &str) -> Result<ArtifactWrite> {
        let mut write = write::begin(pool, caller).await?;
        let loaded =
            store::load(&mut write.tx, team, key, true).await?.ok_or_else(|| artifact_not_found(key))?;
        if let Some(expected) = &caller.if_match {
            let current = etag(loaded.artifact.revision);
            if expected.trim() != "*" && !expected.split(',').any(|tag| tag.trim() == current) {
                return Err(Error::refused(
                    StatusCode::PRECONDITION_FAILED,
                    "precondition_failed",
                    format!("the artifact changed: its ETag is now {current}"),
                ));
            }
        }
        let (policy, roster) = team_context(&mut write.tx, team).await?;
        let artifact = loaded.to_domain();
        Ok(ArtifactWrite { write, id: loaded.artifact.id, artifact, policy, roster })
    }

    /// Moves the artifact to `state`, keeping its cycle, version and pending remedy.
    async fn set_state(&mut self, state: State) -> Result<()> {
        let update = ArtifactUpdate {
            state,
            cycle: self.artifact.cycle,
            current_version: self.artifact.current.number,
            pending_remedy: self.artifact.pending_remedy.as_ref(),
        };
        Ok(store::update(&mut self.write.tx, self.id, update).await?)
    }

    /// Builds the status the write leaves, appends the event and commits.
    async fn commit(
        mut self,
        team: &str,
        key: &str,
        caller: &Caller,
        event: NewEvent<'_>,
        code: StatusCode,
    ) -> Result<Reply<ArtifactStatus>> {
        let status = status(&mut self.write.tx, team, key, self.policy, &self.roster).await?;
        self.write.commit(team, caller, event, (code, status)).await
    }
}

/// An artifact's ETag: its revision, which every change increases.
pub fn etag(revision: i64) -> String {
    format!("\"{revision}\"")
}

pub async fn create(
    pool: &Db,
    caller: &Caller,
    team: &str,
    input: ArtifactInput,
) -> Result<Reply<ArtifactStatus>> {
    caller.require_actor(team, &input.author)?;
    let contributors = contributors(input.contributors.as_deref());
    let mut write = write::begin(pool, caller).await?;
    let (policy, roster) = team_context(&mut write.tx, team).await?;
    domain::decide_first_version(&roster, Credits { author: &input.author, contributors: &contributors })?;
    let paths = input.paths.unwrap_or_default();
    let new = NewArtifact {
        key: &input.key,
        title: &input.title,
        kind: input.kind.as_deref(),
        paths: &paths,
        author: &input.author,
    };
    let id = store::insert(&mut write.tx, team, &new).await?.ok_or_else(|| {
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
    store::insert_version(&mut write.tx, team, id, &version)
        .await
        .on_constraint(LOCKED_OUT_CREDIT, locked_out_credit)?;
    let status = status(&mut write.tx, team, &input.key, policy, &roster).await?;
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
    caller.require_actor(team, &input.author)?;
    let contributors = contributors(input.contributors.as_deref());
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let credits = Credits { author: &input.author, contributors: &contributors };
    let outcome = domain::decide_version(&w.artifact, &w.roster, w.policy, credits)?;
    let id = w.id;
    let version = NewVersion {
        number: outcome.number,
        cycle: outcome.cycle,
        author: &input.author,
        contributors: &contributors,
        git_ref: input.git_ref.as_deref(),
        summary: input.summary.as_deref(),
    };
    let tx = &mut w.write.tx;
    store::insert_version(tx, team, id, &version)
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
    let version = version_view(tx, id, outcome.number).await?;
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
    let remedy = input.remedy.as_ref().map(|r| Remedy {
        action: match r.action {
            RemedyActionName::Reassign => RemedyAction::Reassign,
            RemedyActionName::Escalate => RemedyAction::Escalate,
        },
        agent: r.agent.clone(),
        expertise: r.expertise.clone().unwrap_or_default(),
    });
    let evidence = input.evidence.as_ref().map(|e| Evidence {
        counter_evidence: e.counter_evidence.clone(),
        violated_requirement: e.violated_requirement.clone(),
        affected_scope: e.affected_scope.clone(),
        approval_condition: e.approval_condition.clone(),
    });
    let request = domain::ReviewRequest {
        reviewer: &input.reviewer,
        version: number,
        verdict: match input.verdict {
            VerdictName::Approve => Verdict::Approve,
            VerdictName::Reject => Verdict::Reject,
        },
        git_ref: input.git_ref.as_deref(),
        reason: input.reason.as_deref(),
        remedy: remedy.as_ref(),
        evidence: evidence.as_ref(),
    };
    let outcome = domain::decide_review(&w.artifact, &w.roster, w.policy, request)?;
    let (id, cycle) = (w.id, w.artifact.cycle);
    let verdict = if input.verdict == VerdictName::Approve { "approve" } else { "reject" };
    // Counted once the write commits.
    let mut counted = vec![Counted::Review(verdict)];
    let tx = &mut w.write.tx;
    let row = store::insert_review(
        tx,
        team,
        id,
        NewReview {
            number,
            reviewer: &input.reviewer,
            verdict,
            kind: outcome.kind.as_str(),
            git_ref: input.git_ref.as_deref(),
            grounds: input.grounds.map(Grounds::as_str),
            reason: input.reason.as_deref(),
            remedy: input.remedy.as_ref().map(|r| json!(r)),
            evidence: input.evidence.as_ref().map(|e| json!(e)),
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
                           "kind": outcome.kind.as_str(), "state": state.as_str() });
    match &outcome.result {
        ReviewResult::ApprovalRecorded { approvals, required } => {
            store::touch(tx, id).await?;
            data["approvals"] = json!(approvals);
            data["required_approvals"] = json!(required);
        }
        ReviewResult::Approved => {
            store::clear_lockouts(tx, id).await?;
            let update = ArtifactUpdate { state, cycle, current_version: number, pending_remedy: None };
            store::update(tx, id, update).await?;
        }
        ReviewResult::Rejected { lockouts, pending, deadlocked } => {
            let locked_out = store::insert_lockouts(tx, team, id, cycle, number, row.id, lockouts).await?;
            counted.push(Counted::LockoutsCreated(locked_out));
            let update =
                ArtifactUpdate { state, cycle, current_version: number, pending_remedy: Some(pending) };
            store::update(tx, id, update).await?;
            data["lockouts"] = json!(lockouts);
            data["reason"] = json!(pending.reason);
            data["remedy"] = json!(input.remedy);
            if *deadlocked {
                let details = escalation_details(tx, id, cycle).await?;
                store::open_escalation(tx, team, id, &details).await?;
                counted.push(Counted::DeadlockOpened);
                data["deadlocked"] = json!(true);
            }
        }
    }
    let status = status(tx, team, key, w.policy, &w.roster).await?;
    let kind = if verdict == "approve" { "review.approved" } else { "review.rejected" };
    let event = NewEvent { artifact: Some(key), kind, actor: Some(&input.reviewer), data };
    let outcome = ReviewOutcome { review: review_view(row), artifact: status };
    counted.into_iter().for_each(|c| w.write.count(c));
    w.write.commit(team, caller, event, (StatusCode::CREATED, outcome)).await
}

/// R9: what the user needs to decide: every version of the cycle with its authors, the
/// rejections, and the lockouts.
async fn escalation_details(conn: &mut PgConnection, id: i64, cycle: i32) -> Result<Value> {
    let versions = versions_view(conn, id, 0, i64::MAX).await?;
    let versions: Vec<&Version> = versions.iter().filter(|v| v.cycle == cycle).collect();
    let rejections: Vec<Value> = versions
        .iter()
        .flat_map(|v| v.reviews.iter().filter(|r| r.verdict == VerdictName::Reject))
        .map(|r| json!({ "version": r.version, "reviewer": r.reviewer, "reason": r.reason, "remedy": r.remedy }))
        .collect();
    let lockouts: Vec<Lockout> =
        store::artifact_lockouts(conn, id).await?.into_iter().map(lockout_view).collect();
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
    let (id, cycle) = (w.id, w.artifact.cycle);
    store::insert_assignment(
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
    w.set_state(State::InRevision).await?;
    let data = json!({ "agent": input.agent, "note": input.note, "state": State::InRevision.as_str() });
    let event = NewEvent { artifact: Some(key), kind: "assignment.created", actor: Some(&input.agent), data };
    w.commit(team, key, caller, event, StatusCode::CREATED).await
}

pub async fn release(pool: &Db, caller: &Caller, team: &str, key: &str) -> Result<Reply<ArtifactStatus>> {
    caller.require(team, Scope::Coordinator)?;
    let mut w = ArtifactWrite::open(pool, caller, team, key).await?;
    let agent = domain::decide_release(&w.artifact)?;
    store::end_assignment(&mut w.write.tx, w.id, "released").await?;
    w.set_state(State::ChangesRequested).await?;
    let data = json!({ "agent": agent, "state": State::ChangesRequested.as_str() });
    let event = NewEvent { artifact: Some(key), kind: "assignment.released", actor: Some(&agent), data };
    w.commit(team, key, caller, event, StatusCode::OK).await
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
    let (id, cycle) = (w.id, w.artifact.cycle);
    if let Resolution::Assign(agent) = resolution {
        store::insert_assignment(&mut w.write.tx, team, id, cycle, agent, Some(&input.reason), "user")
            .await?;
    }
    w.set_state(state).await?;
    let action = if input.action == ResolutionAction::Assign { "assign" } else { "abandon" };
    let resolution =
        json!({ "action": action, "agent": input.agent, "reason": input.reason, "by": caller.token_name });
    store::resolve_escalation(&mut w.write.tx, id, &resolution).await?;
    w.write.count(Counted::DeadlockResolved(action));
    let data =
        json!({ "action": action, "agent": input.agent, "reason": input.reason, "state": state.as_str() });
    let event =
        NewEvent { artifact: Some(key), kind: "escalation.resolved", actor: input.agent.as_deref(), data };
    w.commit(team, key, caller, event, StatusCode::OK).await
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
    store::lift_lockout(&mut w.write.tx, w.id, agent, reason).await?;
    store::touch(&mut w.write.tx, w.id).await?;
    let data = json!({ "agent": agent, "reason": reason });
    let event = NewEvent { artifact: Some(key), kind: "lockout.lifted", actor: Some(agent), data };
    w.commit(team, key, caller, event, StatusCode::OK).await
}

/// The artifact's revision alone: enough to answer a conditional GET.
/// A read answered from what the caller already holds, or in full.
pub enum Fetched<T> {
    /// The caller's copy is current: this is its revision.
    Unchanged(i64),
    Full(T),
}

/// The artifact's status, on one connection. When the caller holds a copy, `held` says
/// whether a revision is the one it holds; if so, only the revision is read.
pub async fn get(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    held: Option<impl FnOnce(i64) -> bool>,
) -> Result<Fetched<ArtifactStatus>> {
    caller.require(team, Scope::Read)?;
    pool.read(async |conn| {
        if let Some(held) = held {
            let revision = store::revision(conn, team, key).await?.ok_or_else(|| artifact_not_found(key))?;
            if held(revision) {
                return Ok(Fetched::Unchanged(revision));
            }
        }
        let (policy, roster) = team_context(conn, team).await?;
        status(conn, team, key, policy, &roster).await.map(Fetched::Full)
    })
    .await
}

/// The artifact's status as it stands in this connection's view.
async fn status(
    conn: &mut PgConnection,
    team: &str,
    key: &str,
    policy: Policy,
    roster: &domain::Roster,
) -> Result<ArtifactStatus> {
    let loaded = store::load(conn, team, key, false).await?.ok_or_else(|| artifact_not_found(key))?;
    let id = loaded.artifact.id;
    let eligible_agents = domain::eligible_agents(&loaded.to_domain(), roster, policy);
    let escalation = store::escalation(conn, id).await?.map(escalation_view);
    let Loaded { artifact, current, contributors, cycle_reviews, lockouts, assignment } = loaded;
    let reviews = cycle_reviews.into_iter().filter(|r| r.number == current.number).map(review_view).collect();
    Ok(ArtifactStatus {
        key: artifact.key,
        title: artifact.title,
        kind: artifact.kind,
        paths: artifact.paths,
        state: artifact.state,
        cycle: artifact.cycle,
        revision: artifact.revision,
        current_version: version_from_rows(current, &contributors, reviews),
        original_author: artifact.original_author,
        lockouts: lockouts.into_iter().map(lockout_view).collect(),
        assignment: assignment.map(|a| Assignment {
            agent: a.agent_id,
            note: a.note,
            assigned_by: a.assigned_by,
            assigned_at: a.assigned_at,
        }),
        pending_remedy: artifact.pending_remedy.and_then(|p| serde_json::from_value(p).ok()),
        eligible_agents,
        escalation,
        created_at: artifact.created_at,
        updated_at: artifact.updated_at,
    })
}

pub async fn list(
    pool: &Db,
    caller: &Caller,
    team: &str,
    state: Option<&str>,
    agent: Option<&str>,
    cursor: Option<&str>,
    limit: i64,
) -> Result<Vec<ArtifactSummary>> {
    caller.require(team, Scope::Read)?;
    let rows = pool
        .read(async |conn| {
            teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
            Ok::<_, Error>(store::list(conn, team, state, agent, cursor, limit).await?)
        })
        .await?;
    Ok(rows
        .into_iter()
        .map(|a| ArtifactSummary {
            key: a.key,
            title: a.title,
            kind: a.kind,
            state: a.state,
            cycle: a.cycle,
            revision: a.revision,
            current_version: a.current_version,
            original_author: a.original_author,
            updated_at: a.updated_at,
        })
        .collect())
}

/// The artifact's id, for reads that need no lock.
async fn artifact_id(conn: &mut PgConnection, team: &str, key: &str) -> Result<i64> {
    let id: Option<i64> = sqlx::query_scalar("select id from artifacts where team_id = $1 and key = $2")
        .bind(team)
        .bind(key)
        .fetch_optional(conn)
        .await?;
    id.ok_or_else(|| artifact_not_found(key))
}

pub async fn versions(
    pool: &Db,
    caller: &Caller,
    team: &str,
    key: &str,
    after: i32,
    limit: i64,
) -> Result<Vec<Version>> {
    caller.require(team, Scope::Read)?;
    pool.read(async |conn| {
        let id = artifact_id(conn, team, key).await?;
        versions_view(conn, id, after, limit).await
    })
    .await
}

pub async fn version(pool: &Db, caller: &Caller, team: &str, key: &str, number: i32) -> Result<Version> {
    caller.require(team, Scope::Read)?;
    // Saturating: a path may carry any i32, and `i32::MIN - 1` would overflow.
    let after = number.saturating_sub(1);
    pool.read(async |conn| {
        let id = artifact_id(conn, team, key).await?;
        versions_view(conn, id, after, 1).await
    })
    .await?
    .into_iter()
    .find(|v| v.number == number)
    .ok_or_else(|| Error::NotFound(format!("version {number} of '{key}' does not exist")))
}

async fn version_view(conn: &mut PgConnection, id: i64, number: i32) -> Result<Version> {
    Ok(versions_view(conn, id, number - 1, 1).await?.remove(0))
}

async fn versions_view(conn: &mut PgConnection, id: i64, after: i32, limit: i64) -> Result<Vec<Version>> {
    let rows = store::versions(conn, id, after, limit).await?;
    let contributors = store::all_contributors(conn, id).await?;
    let mut reviews = store::reviews(conn, id).await?;
    Ok(rows
        .into_iter()
        .map(|v| {
            let (mine, rest): (Vec<_>, Vec<_>) = reviews.drain(..).partition(|r| r.number == v.number);
            reviews = rest;
            let cs: Vec<_> = contributors.iter().filter(|c| c.number == v.number).cloned().collect();
            version_from_rows(v, &cs, mine.into_iter().map(review_view).collect())
        })
        .collect())
}

fn version_from_rows(
    v: store::VersionRow,
    contributors: &[store::ContributorRow],
    reviews: Vec<Review>,
) -> Version {
    Version {
        number: v.number,
        cycle: v.cycle,
        author: v.author,
        contributors: contributors
            .iter()
            .map(|c| ContributorBody {
                agent: c.agent_id.clone(),
                role: match store::parse_role(&c.role) {
                    domain::ContributorRole::CoAuthor => Role::CoAuthor,
                    domain::ContributorRole::Pair => Role::Pair,
                    domain::ContributorRole::Advisor => Role::Advisor,
                },
            })
            .collect(),
        git_ref: v.git_ref,
        summary: v.summary,
        submitted_at: v.submitted_at,
        reviews,
    }
}

fn review_view(r: store::ReviewRow) -> Review {
    Review {
        id: r.id,
        version: r.number,
        reviewer: r.reviewer,
        verdict: if r.verdict == "approve" { VerdictName::Approve } else { VerdictName::Reject },
        kind: r.kind,
        git_ref: r.git_ref,
        grounds: r.grounds,
        reason: r.reason,
        remedy: r.remedy.and_then(|v| serde_json::from_value(v).ok()),
        evidence: r.evidence.and_then(|v| serde_json::from_value(v).ok()),
        created_at: r.created_at,
    }
}

fn lockout_view(l: store::LockoutRow) -> Lockout {
    Lockout {
        artifact: l.artifact,
        agent: l.agent_id,
        version: l.number,
        reason: l.reason,
        reviewer: l.reviewer,
        locked_at: l.locked_at,
    }
}

fn escalation_view(e: store::EscalationRow) -> Escalation {
    Escalation { id: e.id, artifact: e.artifact, opened_at: e.opened_at, details: e.details }
}

fn contributors(input: Option<&[ContributorBody]>) -> Vec<domain::Contributor> {
    input.unwrap_or_default().iter().map(ContributorBody::to_domain).collect()
}

pub async fn lockouts(
    pool: &Db,
    caller: &Caller,
    team: &str,
    agent: Option<&str>,
    artifact: Option<&str>,
) -> Result<Vec<Lockout>> {
    caller.require(team, Scope::Read)?;
    let rows = pool
        .read(async |conn| {
            teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
            let id = match artifact {
                Some(key) => Some(artifact_id(conn, team, key).await?),
                None => None,
            };
            Ok::<_, Error>(store::active_lockouts(conn, team, id, agent).await?)
        })
        .await?;
    Ok(rows.into_iter().map(lockout_view).collect())
}

pub async fn escalations(
    pool: &Db,
    caller: &Caller,
    team: &str,
    after: i64,
    limit: i64,
) -> Result<Vec<Escalation>> {
    caller.require(team, Scope::Read)?;
    let rows = pool
        .read(async |conn| {
            teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
            Ok::<_, Error>(store::open_escalations(conn, team, after, limit).await?)
        })
        .await?;
    Ok(rows.into_iter().map(escalation_view).collect())
}

/// May the agent write? For an artifact: would a version it authors be accepted now (R5, R6,
/// R11)? For file paths: is it locked out of an artifact whose globs match one (R6)?
pub async fn check(pool: &Db, caller: &Caller, team: &str, input: CheckInput) -> Result<CheckResult> {
    match caller.scope {
        // An agent's token asks only about itself.
        Scope::Agent => caller.require_actor(team, &input.agent)?,
        _ => caller.require(team, Scope::Read)?,
    }
    if input.artifact.is_none() && input.paths.is_none() {
        return Err(Error::invalid("artifact", "name an artifact, file paths, or both"));
    }
    pool.read(async |conn| check_on(conn, team, &input).await).await
}

/// [`check`] once the question is known to be well formed.
async fn check_on(conn: &mut PgConnection, team: &str, input: &CheckInput) -> Result<CheckResult> {
    // The team first, whatever is asked: a path check of a team that does not exist is 404,
    // not `allowed` (the admin token reaches every team id).
    let policy = teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?.policy();
    // An agent that may not author at all is refused whatever it would write.
    let agent = agents::find(conn, team, &input.agent).await?.map(|a| a.to_domain());
    if let Err(refusal) = domain::decide_author(agent.as_ref(), &input.agent) {
        let denial = Denial { artifact: None, code: refusal.code.as_str().into(), detail: refusal.detail };
        return Ok(CheckResult { allowed: false, denials: vec![denial] });
    }
    let mut denials = Vec::new();
    if let Some(key) = &input.artifact {
        let roster = agents::roster(conn, team).await?;
        let refusal = match store::load(conn, team, key, false).await? {
            Some(loaded) => domain::decide_write(&loaded.to_domain(), &roster, policy, &input.agent).err(),
            // Writing a new artifact is writing its first version.
            None => {
                domain::decide_first_version(&roster, Credits { author: &input.agent, contributors: &[] })
                    .err()
            }
        };
        denials.extend(refusal.map(|r| Denial {
            artifact: Some(key.clone()),
            code: r.code.as_str().into(),
            detail: r.detail,
        }));
    }
    if let Some(paths) = input.paths.as_deref().filter(|p| !p.is_empty()) {
        for locked in store::locked_paths(conn, team, &input.agent).await? {
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
    }
    Ok(CheckResult { allowed: denials.is_empty(), denials })
}

/// A page of the team's events after `after` (the team must exist).
pub async fn events(pool: &Db, caller: &Caller, team: &str, after: i64, limit: i64) -> Result<Vec<Event>> {
    let fetched = tagged_events(pool, caller, team, after, limit, None::<fn(i64) -> bool>).await?;
    Ok(match fetched {
        Fetched::Full((_, items)) => items,
        Fetched::Unchanged(_) => Vec::new(),
    })
}

/// A page of the team's events after `after`, with the team's last seq (its lists' ETag), on
/// one connection. The seq is read first, so the page is at least as new as its tag; when the
/// caller holds a copy, `held` says whether a seq is the one it holds, and if so only the seq
/// is read.
pub async fn tagged_events(
    pool: &Db,
    caller: &Caller,
    team: &str,
    after: i64,
    limit: i64,
    held: Option<impl FnOnce(i64) -> bool>,
) -> Result<Fetched<(i64, Vec<Event>)>> {
    caller.require(team, Scope::Read)?;
    pool.read(async |conn| {
        let seq = teams::last_event_seq(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        if held.is_some_and(|held| held(seq)) {
            return Ok(Fetched::Unchanged(seq));
        }
        Ok(Fetched::Full((seq, crate::feed::page(conn, team, after, limit).await?)))
    })
    .await
}
