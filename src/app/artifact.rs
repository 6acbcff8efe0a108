//! What every write to one artifact shares: its rows locked and loaded, the `If-Match` check,
//! and the status it leaves.

use sqlx::PgConnection;

use crate::app::actor::team_not_found;
use crate::app::views;
use crate::domain::{self, Code, Contributor, Policy, Roster, State};
use crate::error::{Error, Result};
use crate::resources::ArtifactStatus;
use crate::store::artifacts::{self as store, ArtifactUpdate, ContributorRow, Loaded};

pub fn artifact_not_found(key: &str) -> Error {
    Error::NotFound(format!("artifact '{key}' does not exist"))
}

/// A version insert the database refused because a credit is locked out (the trigger behind
/// R6); the domain refuses it first, so this only fires if a code path skipped it.
pub const LOCKED_OUT_CREDIT: &str = "versions_credit_not_locked_out";

pub fn locked_out_credit() -> Error {
    Error::refused(Code::AgentLockedOut, "a credited agent is locked out of this artifact")
}

/// An artifact's ETag: its revision and its team's, since the status lists the agents eligible
/// to revise it, which the team's roster and policy decide.
pub fn etag(revision: i64, team_revision: i64) -> String {
    format!("\"{revision}.{team_revision}\"")
}

/// The contributors of a version as stored.
pub fn contributor_rows(contributors: &[Contributor]) -> Vec<ContributorRow> {
    contributors.iter().map(|c| ContributorRow { agent_id: c.agent.clone(), role: c.role }).collect()
}

/// An artifact being written: its row locked for the whole transaction (R13) and its team's
/// row shared (the roster and policy hold still), then the artifact, the roster and the policy
/// loaded in one statement. The write's effects change `loaded` as they change the rows, so the
/// reply is the status this transaction leaves, without reading it again.
pub struct ArtifactWrite {
    /// The team the artifact belongs to: every statement of the write names it.
    pub team: String,
    /// The artifact as the rules see it when the write began.
    pub rules: domain::Artifact,
    pub loaded: Loaded,
    pub policy: Policy,
    pub roster: Roster,
}

impl ArtifactWrite {
    /// Locks and loads the artifact. A stale `If-Match` is 412 `precondition_failed` (compared
    /// strongly, as RFC 9110 asks of `If-Match`: a weak tag never matches).
    pub async fn open(
        tx: &mut PgConnection,
        team: &str,
        key: &str,
        if_match: Option<&str>,
    ) -> Result<ArtifactWrite> {
        let locked = store::lock(tx, team, key).await?;
        let snapshot = store::load(tx, team, key).await?.ok_or_else(|| team_not_found(team))?;
        // Created since the lock found nothing: it did not exist when this write began.
        let loaded = snapshot.artifact.filter(|_| locked).ok_or_else(|| artifact_not_found(key))?;
        if let Some(expected) = if_match {
            let current = etag(loaded.artifact.revision, snapshot.team_revision);
            if expected.trim() != "*" && !expected.split(',').any(|tag| tag.trim() == current) {
                return Err(Error::refused(
                    Code::PreconditionFailed,
                    format!("the artifact changed: its ETag is now {current}"),
                ));
            }
        }
        Ok(ArtifactWrite {
            team: team.to_owned(),
            rules: loaded.to_domain(),
            loaded,
            policy: snapshot.policy,
            roster: snapshot.roster,
        })
    }

    pub fn id(&self) -> i64 {
        self.loaded.artifact.id
    }

    /// Moves the artifact to `state`, keeping its cycle, version and pending remedy.
    pub async fn set_state(&mut self, tx: &mut PgConnection, state: State) -> Result<()> {
        let update = ArtifactUpdate {
            state,
            cycle: self.rules.cycle,
            current_version: self.rules.current.number,
            pending_remedy: self.rules.pending_remedy.as_ref(),
        };
        self.loaded.artifact = store::update(tx, &self.team, self.loaded.artifact.id, update).await?;
        Ok(())
    }

    /// The status the write leaves.
    pub fn status(self) -> ArtifactStatus {
        views::status(self.loaded, self.policy, &self.roster)
    }
}
