//! Forges (admin): where each version's state is posted as a commit status on its `ref`. Set up
//! or changed with one `PUT` (the token sealed, never shown), read, listed, removed. Each change
//! is an event of the team's log.

use uuid::Uuid;

use crate::app::actor::{Actor, team_not_found};
use crate::app::deliver::{self, How, Outbox, forge::default_api_url};
use crate::app::targets;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::{Code, ForgeKind, Scope, TargetKind, TeamId};
use crate::error::{Error, Result, ResultExt};
use crate::resources::{Forge, ForgeInput};
use crate::store::events::NewEvent;
use crate::store::targets::{self as rows, NewTarget, Settings, TargetRow};
use crate::store::{Db, teams};
use crate::validate::{Fields, is_slug};

/// A forge's status context when none is given.
pub const CONTEXT: &str = "reviewlock";

pub fn view(row: &TargetRow) -> Forge {
    Forge {
        name: row.name.clone().unwrap_or_default(),
        kind: row.forge.unwrap_or(ForgeKind::Github),
        api_url: row.url.clone(),
        repository: row.repository.clone().unwrap_or_default(),
        context: row.context.clone().unwrap_or_else(|| CONTEXT.into()),
        enabled: row.enabled,
        disabled_reason: row.disabled_reason,
        delivery: targets::state(row),
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn not_found(team: &TeamId, name: &str) -> Error {
    Error::NotFound(format!("forge '{name}' does not exist in team '{team}'"))
}

/// Checks every field at fault at once.
fn check_fields(name: &str, input: &ForgeInput) -> Result<()> {
    let mut fields = Fields::new();
    if !is_slug(name) {
        fields.add("name", "a forge's name is lowercase letters, digits and '-' (at most 63), e.g. 'github'");
    }
    let repository = input.repository.trim();
    let parts: Vec<&str> = repository.split('/').collect();
    let valid = match input.kind {
        ForgeKind::Github => parts.len() == 2 && parts.iter().all(|p| !p.is_empty()),
        ForgeKind::Gitlab => parts.iter().all(|p| !p.is_empty()),
    };
    if repository.chars().count() > 300 || repository.chars().any(char::is_whitespace) || !valid {
        let expected = match input.kind {
            ForgeKind::Github => "GitHub's 'owner/name'",
            ForgeKind::Gitlab => "GitLab's project id or path ('group/project')",
        };
        fields.add("repository", format!("must be {expected}"));
    }
    fields.line("token", &input.token, 1000);
    if let Some(context) = &input.context {
        fields.line("context", context, 100);
    }
    fields.finish()
}

/// Sets up the forge `name`, or replaces its settings (201 when new, 200 when changed).
#[tracing::instrument(skip_all, fields(%team, forge = %name), err(level = "debug"))]
pub async fn put(
    db: &Db,
    outbox: &Outbox,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    name: &str,
    input: &ForgeInput,
) -> Result<Outcome<Forge>> {
    actor.require(team, Scope::Admin)?;
    check_fields(name, input)?;
    let api_url = input.api_url.as_deref().unwrap_or(default_api_url(input.kind)).trim_end_matches('/');
    targets::check_url(outbox, "api_url", api_url).await?;
    let keys = outbox.keys()?;
    let context = input.context.as_deref().map_or(CONTEXT, str::trim);
    let repository = input.repository.trim();
    let outcome = unit::run(db, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        teams::find(tx, team).await?.ok_or_else(|| team_not_found(team))?;
        let existing = rows::find_forge(tx, team, name).await?;
        let id = existing.as_ref().map_or_else(Uuid::new_v4, |row| row.id);
        let sealed = keys.seal(input.token.trim().as_bytes(), &rows::binding(team, id));
        let (change, how, row) = match existing {
            Some(row) => {
                let settings = Settings {
                    url: api_url,
                    description: None,
                    events: &[],
                    forge: Some(input.kind),
                    repository: Some(repository),
                    context: Some(context),
                    secret: Some(&sealed),
                    enabled: input.enabled.unwrap_or(true),
                };
                let row =
                    rows::update(tx, team, row.id, settings).await?.ok_or_else(|| not_found(team, name))?;
                (Change::Updated, How::Updated, row)
            }
            None => {
                let target = NewTarget {
                    id,
                    kind: TargetKind::Forge,
                    url: api_url,
                    name: Some(name),
                    description: None,
                    events: &[],
                    forge: Some(input.kind),
                    repository: Some(repository),
                    context: Some(context),
                    secret: &sealed,
                    cursor: None,
                    enabled: input.enabled.unwrap_or(true),
                };
                let row = rows::insert(tx, team, target)
                    .await
                    .on_constraint("delivery_targets_forge_name", || {
                        Error::refused(Code::Conflict, "the forge was set up by a concurrent request; retry")
                    })?;
                (Change::Created, How::Created, row)
            }
        };
        let event = NewEvent { artifact: None, actor: None, data: deliver::changed(&row, how) };
        Ok(Done::new(change, view(&row), event))
    })
    .await?;
    outbox.wake.notify_one();
    Ok(outcome)
}

pub async fn list(db: &Db, actor: &Actor, team: &TeamId) -> Result<Vec<Forge>> {
    actor.require(team, Scope::Admin)?;
    db.read(async |conn| {
        teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok(rows::list(conn, team, TargetKind::Forge).await?.iter().map(view).collect())
    })
    .await
}

/// The forge `name` of the team (admin).
pub async fn find(db: &Db, actor: &Actor, team: &TeamId, name: &str) -> Result<TargetRow> {
    let what = format!("forge '{name}'");
    targets::find(db, actor, team, &what, async |conn| rows::find_forge(conn, team, name).await).await
}

#[tracing::instrument(skip_all, fields(%team, forge = %name), err(level = "debug"))]
pub async fn delete(
    db: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    name: &str,
) -> Result<Outcome<()>> {
    actor.require(team, Scope::Admin)?;
    unit::run(db, actor, pre, Some(team), async |w| {
        let row = rows::find_forge(&mut w.tx, team, name).await?.ok_or_else(|| not_found(team, name))?;
        let row = rows::delete(&mut w.tx, team, row.id, TargetKind::Forge)
            .await?
            .ok_or_else(|| not_found(team, name))?;
        let event = NewEvent { artifact: None, actor: None, data: deliver::changed(&row, How::Deleted) };
        Ok(Done::new(Change::Removed, (), event))
    })
    .await
}
