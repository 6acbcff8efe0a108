-- Where a team's events go (docs/webhooks.md, docs/integrations.md): webhook subscriptions and
-- forges (commit statuses), delivered from the event log, which is the outbox. Each target
-- keeps a cursor, the last seq it is done with; a delivery worker of any replica takes a target
-- under an advisory lock, sends the events after the cursor in seq order, and moves the cursor
-- past each one delivered (or not wanted). Nothing is queued besides the log itself.
create table delivery_targets (
    team_id          text not null references teams (id) on delete cascade,
    id               uuid not null,
    kind             text not null check (kind in ('webhook', 'forge')),
    -- A webhook's URL, or a forge's API base URL.
    url              text not null,
    -- A forge's name in the team (its path), null for a webhook.
    name             text,
    description      text,
    -- A webhook's filters (types, or prefixes like `review.*`); empty for every event.
    events           text[] not null default '{}',
    -- A forge's kind (`github`, `gitlab`), repository and status context.
    forge            text check (forge in ('github', 'gitlab')),
    repository       text,
    context          text,
    -- The webhook's signing secret or the forge's token, sealed with REVIEWLOCK_SECRET_KEY.
    secret           bytea not null,
    -- During a rotation, the previous signing secret, which also signs until it expires.
    previous_secret  bytea,
    previous_expires_at timestamptz,
    enabled          boolean not null default true,
    -- Why a target was disabled by delivery (`gone`, `failing`), null when enabled or disabled by hand.
    disabled_reason  text,
    -- The last seq this target is done with: delivered, or not wanted.
    cursor           bigint not null,
    -- The failed attempts at the event after the cursor, since the first failure.
    attempts         integer not null default 0,
    failing_since    timestamptz,
    next_attempt_at  timestamptz,
    created_at       timestamptz not null default now(),
    updated_at       timestamptz not null default now(),
    constraint delivery_targets_pkey primary key (team_id, id),
    constraint delivery_targets_forge check ((kind = 'forge') = (name is not null and forge is not null))
);
create unique index delivery_targets_forge_name on delivery_targets (team_id, name) where kind = 'forge';

-- Every attempt, for the delivery log (pruned after 30 days); `seq` is null for a test delivery.
create table delivery_attempts (
    team_id          text not null,
    id               uuid not null,
    target_id        uuid not null,
    seq              bigint,
    event_type       text not null,
    -- The `webhook-id` sent: the same on every attempt at one event for one target.
    message_id       text not null,
    attempt          integer not null,
    manual           boolean not null default false,
    at               timestamptz not null default now(),
    succeeded        boolean not null,
    response_status  integer,
    latency_ms       integer not null,
    response_body    text,
    error            text,
    constraint delivery_attempts_pkey primary key (team_id, id),
    constraint delivery_attempts_target_fkey foreign key (team_id, target_id)
        references delivery_targets (team_id, id) on delete cascade
);
create index delivery_attempts_by_target on delivery_attempts (team_id, target_id, at desc);
