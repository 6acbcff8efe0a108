//! Creating an artifact with its version 1 (R6 for its credits).

use crate::app::actor::{Actor, team_not_found};
use crate::app::artifact::{LOCKED_OUT_CREDIT, contributor_rows, locked_out_credit};
use crate::app::globs;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::app::views;
use crate::domain::TeamId;
use crate::domain::{self, Code, Credits};
use crate::error::{Error, Result, ResultExt};
use crate::resources::events::{ArtifactCreated, EventData};
use crate::resources::{ArtifactInput, ArtifactStatus};
use crate::store::artifacts::{self as store, Loaded, NewArtifact, NewVersion};
use crate::store::events::NewEvent;
use crate::store::{Db, teams};

#[tracing::instrument(skip_all, fields(%team, key = %input.key), err(level = "debug"))]
pub async fn create(
    pool: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    input: ArtifactInput,
) -> Result<Outcome<ArtifactStatus>> {
    let contributors = input.contributors.clone().unwrap_or_default();
    // Who may, before anything costs: the globs are compiled only for a request that may create.
    actor.require_credits(team, &input.author, contributors.iter().map(|c| c.agent.as_str()))?;
    let paths = globs::patterns("paths", input.paths.as_deref().unwrap_or_default())?;
    unit::run(pool, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        // The roster holds still until the commit (see `store::artifacts::lock`).
        if !teams::share(tx, team).await? {
            return Err(team_not_found(team));
        }
        let now = store::load_team(tx, team).await?.ok_or_else(|| team_not_found(team))?;
        domain::decide_first_version(
            &now.roster,
            Credits { author: &input.author, contributors: &contributors },
        )?;
        let new = NewArtifact {
            key: &input.key,
            title: &input.title,
            kind: input.kind.as_deref(),
            paths: &paths,
            author: &input.author,
        };
        let artifact = store::insert(tx, team, &new).await?.ok_or_else(|| {
            Error::refused(Code::ArtifactExists, format!("artifact '{}' already exists", input.key))
        })?;
        let version = NewVersion {
            number: 1,
            cycle: 1,
            author: &input.author,
            contributors: &contributors,
            git_ref: input.git_ref.as_deref(),
            summary: input.summary.as_deref(),
        };
        let current = store::insert_version(tx, team, artifact.id, &version)
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
        let data = EventData::ArtifactCreated(ArtifactCreated {
            version: 1,
            author: input.author.to_string(),
            contributors: input.contributors.clone(),
            title: input.title.clone(),
        });
        let event = NewEvent { artifact: Some(&input.key), actor: Some(input.author.to_string()), data };
        Ok(Done::new(Change::Created, views::status(loaded, now.policy, &now.roster), event))
    })
    .await
}
