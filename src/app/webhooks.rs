//! Webhook subscriptions (admin): create (the signing secret shown once), list, read, change,
//! delete, rotate the secret, send a test delivery. Each change is an event of the team's log.

use chrono::Utc;
use uuid::Uuid;

use crate::app::actor::{Actor, team_not_found};
use crate::app::deliver::{self, How, Outbox, webhook};
use crate::app::targets;
use crate::app::unit::{self, Change, Done, Outcome, Preconditions};
use crate::domain::{Scope, TargetKind, TeamId};
use crate::error::{Error, Result};
use crate::outbound::signature;
use crate::resources::{CreatedWebhook, RotatedSecret, RotationInput, Webhook, WebhookInput, WebhookPatch};
use crate::store::events::NewEvent;
use crate::store::targets::{self as rows, NewTarget, Settings, TargetRow};
use crate::store::{Db, teams};
use crate::validate::{Fields, MAX_LIST, MAX_NAME};

/// How long the previous secret signs after a rotation, unless the rotation says otherwise.
pub const GRACE: chrono::Duration = chrono::Duration::hours(24);

pub fn view(row: &TargetRow) -> Webhook {
    Webhook {
        id: row.id,
        url: row.url.clone(),
        events: row.events.clone(),
        description: row.description.clone(),
        enabled: row.enabled,
        disabled_reason: row.disabled_reason,
        previous_secret_expires_at: row.previous_expires_at.filter(|at| *at > Utc::now()),
        delivery: targets::state(row),
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// Checks a subscription's filters and description, every field at fault at once.
fn check_fields(events: Option<&[String]>, description: Option<&str>) -> Result<()> {
    let mut fields = Fields::new();
    if let Some(events) = events {
        if events.len() > MAX_LIST {
            fields.add("events", format!("must have at most {MAX_LIST} items"));
        }
        for (i, filter) in events.iter().enumerate() {
            if let Err(e) = webhook::check_filter(filter) {
                fields.add(format!("events[{i}]"), e);
            }
        }
    }
    fields.opt_text("description", description, MAX_NAME);
    fields.finish()
}

fn event(row: &TargetRow, how: How) -> NewEvent<'static> {
    NewEvent { artifact: None, actor: None, data: deliver::changed(row, how) }
}

fn not_found(team: &TeamId, id: Uuid) -> Error {
    Error::NotFound(format!("webhook '{id}' does not exist in team '{team}'"))
}

/// Creates a subscription; its signing secret is returned here once and stored sealed.
#[tracing::instrument(skip_all, fields(%team), err(level = "debug"))]
pub async fn create(
    db: &Db,
    outbox: &Outbox,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    input: &WebhookInput,
) -> Result<Outcome<CreatedWebhook>> {
    actor.require(team, Scope::Admin)?;
    check_fields(Some(&input.events), input.description.as_deref())?;
    if input.after.is_some_and(|a| a < 0) {
        return Err(Error::invalid("after", "must be 0 or more"));
    }
    targets::check_url(outbox, "url", &input.url).await?;
    let keys = outbox.keys()?;
    let outcome = unit::run(db, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        teams::find(tx, team).await?.ok_or_else(|| team_not_found(team))?;
        let id = Uuid::new_v4();
        let secret = signature::new_secret();
        let sealed = keys.seal(secret.as_bytes(), &rows::binding(team, id));
        let target = NewTarget {
            id,
            kind: TargetKind::Webhook,
            url: &input.url,
            name: None,
            description: input.description.as_deref().map(str::trim),
            events: &input.events,
            forge: None,
            repository: None,
            context: None,
            secret: &sealed,
            cursor: input.after,
            enabled: true,
        };
        let row = rows::insert(tx, team, target).await?;
        let info = view(&row);
        Done::new(Change::Created, CreatedWebhook { info: info.clone(), secret }, event(&row, How::Created))
            .replayed_as(Change::Updated, info)
    })
    .await?;
    outbox.wake.notify_one();
    Ok(outcome)
}

pub async fn list(db: &Db, actor: &Actor, team: &TeamId) -> Result<Vec<Webhook>> {
    actor.require(team, Scope::Admin)?;
    db.read(async |conn| {
        teams::find(conn, team).await?.ok_or_else(|| team_not_found(team))?;
        Ok(rows::list(conn, team, TargetKind::Webhook).await?.iter().map(view).collect())
    })
    .await
}

/// The subscription `id` of the team (admin).
pub async fn find(db: &Db, actor: &Actor, team: &TeamId, id: Uuid) -> Result<TargetRow> {
    let what = format!("webhook '{id}'");
    let row = targets::find(db, actor, team, &what, async |conn| rows::find(conn, team, id).await).await?;
    if row.kind == TargetKind::Webhook { Ok(row) } else { Err(not_found(team, id)) }
}

/// Changes the fields given; enabling a disabled subscription resumes from its cursor.
#[tracing::instrument(skip_all, fields(%team, webhook = %id), err(level = "debug"))]
pub async fn update(
    db: &Db,
    outbox: &Outbox,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: Uuid,
    patch: &WebhookPatch,
) -> Result<Outcome<Webhook>> {
    actor.require(team, Scope::Admin)?;
    check_fields(patch.events.as_deref(), patch.description.as_deref())?;
    if let Some(url) = &patch.url {
        targets::check_url(outbox, "url", url).await?;
    }
    let outcome = unit::run(db, actor, pre, Some(team), async |w| {
        let tx = &mut w.tx;
        let row = rows::find(tx, team, id).await?.filter(|r| r.kind == TargetKind::Webhook);
        let row = row.ok_or_else(|| not_found(team, id))?;
        let settings = Settings {
            url: patch.url.as_deref().unwrap_or(&row.url),
            description: patch.description.as_deref().map(str::trim).or(row.description.as_deref()),
            events: patch.events.as_deref().unwrap_or(&row.events),
            forge: None,
            repository: None,
            context: None,
            secret: None,
            enabled: patch.enabled.unwrap_or(row.enabled),
        };
        let row = rows::update(tx, team, id, settings).await?.ok_or_else(|| not_found(team, id))?;
        Ok(Done::new(Change::Updated, view(&row), event(&row, How::Updated)))
    })
    .await?;
    outbox.wake.notify_one();
    Ok(outcome)
}

#[tracing::instrument(skip_all, fields(%team, webhook = %id), err(level = "debug"))]
pub async fn delete(
    db: &Db,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: Uuid,
) -> Result<Outcome<()>> {
    actor.require(team, Scope::Admin)?;
    unit::run(db, actor, pre, Some(team), async |w| {
        let row = rows::delete(&mut w.tx, team, id, TargetKind::Webhook)
            .await?
            .ok_or_else(|| not_found(team, id))?;
        Ok(Done::new(Change::Removed, (), event(&row, How::Deleted)))
    })
    .await
}

/// A new signing secret, returned here once; the previous one signs beside it for the grace
/// period.
#[tracing::instrument(skip_all, fields(%team, webhook = %id), err(level = "debug"))]
pub async fn rotate(
    db: &Db,
    outbox: &Outbox,
    actor: &Actor,
    pre: &Preconditions,
    team: &TeamId,
    id: Uuid,
    input: &RotationInput,
) -> Result<Outcome<RotatedSecret>> {
    actor.require(team, Scope::Admin)?;
    let grace = match input.grace_seconds {
        None => GRACE,
        Some(s) if (0..=7 * 86_400).contains(&s) => chrono::Duration::seconds(s),
        Some(_) => return Err(Error::invalid("grace_seconds", "must be between 0 and 604800 (7 days)")),
    };
    let keys = outbox.keys()?;
    unit::run(db, actor, pre, Some(team), async |w| {
        let secret = signature::new_secret();
        let sealed = keys.seal(secret.as_bytes(), &rows::binding(team, id));
        let expires = Utc::now() + grace;
        let row =
            rows::rotate(&mut w.tx, team, id, &sealed, expires).await?.ok_or_else(|| not_found(team, id))?;
        let info = view(&row);
        let reply =
            RotatedSecret { secret, previous_secret_expires_at: row.previous_expires_at.unwrap_or(expires) };
        Done::new(Change::Updated, reply, event(&row, How::Updated)).replayed_as(Change::Updated, info)
    })
    .await
}
