//! The resources the API returns, made from the rows that `store` read or wrote.

use crate::domain::{self, Contributor, Policy, Roster};
use crate::resources::{
    Agent, AgentLockout, ArtifactStatus, ArtifactSummary, Assignment, Escalation, Lockout, Review, Team,
    Token, Version,
};
use crate::store::agents::{AgentLockoutRow, AgentRow};
use crate::store::artifacts::{
    ArtifactRow, ContributorRow, EscalationRow, Loaded, LockoutRow, ReviewRow, VersionRecord, VersionRow,
};
use crate::store::teams::TeamRow;
use crate::store::tokens::TokenRow;

/// The artifact's status, with the agents its team's roster and policy make eligible to revise it.
pub fn status(loaded: Loaded, policy: Policy, roster: &Roster) -> ArtifactStatus {
    let eligible_agents = domain::eligible_agents(&loaded.to_domain(), roster, policy);
    let Loaded { artifact, current, contributors, cycle_reviews, lockouts, assignment, escalation } = loaded;
    let reviews = cycle_reviews.into_iter().filter(|r| r.number == current.number).map(review).collect();
    ArtifactStatus {
        key: artifact.key,
        title: artifact.title,
        kind: artifact.kind,
        paths: artifact.paths,
        state: artifact.state,
        cycle: artifact.cycle,
        revision: artifact.revision,
        current_version: version(current, &contributors, reviews),
        original_author: artifact.original_author,
        lockouts: lockouts.into_iter().map(lockout).collect(),
        assignment: assignment.map(|a| Assignment {
            agent: a.agent_id,
            note: a.note,
            assigned_by: a.assigned_by,
            assigned_at: a.assigned_at,
        }),
        pending_remedy: artifact.pending_remedy,
        eligible_agents,
        escalation: escalation.map(self::escalation),
        created_at: artifact.created_at,
        updated_at: artifact.updated_at,
    }
}

pub fn summary(a: ArtifactRow) -> ArtifactSummary {
    ArtifactSummary {
        key: a.key,
        title: a.title,
        kind: a.kind,
        state: a.state,
        cycle: a.cycle,
        revision: a.revision,
        current_version: a.current_version,
        original_author: a.original_author,
        updated_at: a.updated_at,
    }
}

pub fn version_record(v: VersionRecord) -> Version {
    version(v.version, &v.contributors, v.reviews.into_iter().map(review).collect())
}

pub fn version(v: VersionRow, contributors: &[ContributorRow], reviews: Vec<Review>) -> Version {
    Version {
        number: v.number,
        cycle: v.cycle,
        author: v.author,
        contributors: contributors
            .iter()
            .map(|c| Contributor { agent: c.agent_id.clone(), role: c.role })
            .collect(),
        git_ref: v.git_ref,
        summary: v.summary,
        submitted_at: v.submitted_at,
        reviews,
    }
}

pub fn review(r: ReviewRow) -> Review {
    Review {
        id: r.id,
        version: r.number,
        reviewer: r.reviewer,
        verdict: r.verdict,
        kind: r.kind,
        git_ref: r.git_ref,
        grounds: r.grounds,
        reason: r.reason,
        remedy: r.remedy,
        evidence: r.evidence,
        created_at: r.created_at,
    }
}

pub fn lockout(l: LockoutRow) -> Lockout {
    Lockout {
        artifact: l.artifact,
        agent: l.agent_id,
        version: l.number,
        reason: l.reason,
        reviewer: l.reviewer,
        locked_at: l.locked_at,
    }
}

pub fn escalation(e: EscalationRow) -> Escalation {
    Escalation { id: e.id, artifact: e.artifact, opened_at: e.opened_at, details: e.details }
}

impl From<TeamRow> for Team {
    fn from(t: TeamRow) -> Self {
        Team {
            policy: t.policy(),
            id: t.id,
            display_name: t.display_name,
            created_at: t.created_at,
            updated_at: t.updated_at,
        }
    }
}

impl From<AgentRow> for Agent {
    fn from(a: AgentRow) -> Self {
        Agent {
            id: a.id,
            display_name: a.display_name,
            kind: a.kind,
            roles: a.roles,
            can_review: a.can_review,
            can_author: a.can_author,
            expertise: a.expertise,
            aliases: a.aliases,
            active: a.active,
            created_at: a.created_at,
            updated_at: a.updated_at,
        }
    }
}

impl From<AgentLockoutRow> for AgentLockout {
    fn from(l: AgentLockoutRow) -> Self {
        AgentLockout {
            artifact: l.artifact,
            version: l.version,
            reason: l.reason,
            reviewer: l.reviewer,
            locked_at: l.locked_at,
        }
    }
}

impl From<TokenRow> for Token {
    fn from(t: TokenRow) -> Self {
        Token { id: t.id, name: t.name, scope: t.scope, agent: t.agent_id, created_at: t.created_at }
    }
}
