-- reviewlock's schema. Constraints are named: the service maps violations by name.

create table teams (
    id                 text primary key
        constraint teams_id_format check (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    display_name       text,
    profile            text not null default 'standard'
        constraint teams_profile_valid check (profile in ('standard', 'waza')),
    required_approvals integer not null default 1
        constraint teams_required_approvals_positive check (required_approvals >= 1),
    -- The last event seq handed out. Taken under this row's lock as a transaction's last
    -- statement, so events commit in seq order (R12).
    last_event_seq     bigint not null default 0,
    created_at         timestamptz not null default now(),
    updated_at         timestamptz not null default now()
);

create table agents (
    team_id      text not null references teams (id) on delete cascade,
    id           text not null
        constraint agents_id_format check (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    display_name text,
    kind         text not null default 'ai'
        constraint agents_kind_valid check (kind in ('ai', 'human')),
    roles        text[] not null default '{}',
    can_review   boolean not null default false,
    can_author   boolean not null default true,
    expertise    text[] not null default '{}',
    active       boolean not null default true,
    created_at   timestamptz not null default now(),
    updated_at   timestamptz not null default now(),
    constraint agents_pkey primary key (team_id, id)
);

-- Bearer tokens, stored only as the SHA-256 of their secret. A token without a team is a
-- server-wide admin token.
create table tokens (
    id          uuid primary key,
    team_id     text references teams (id) on delete cascade,
    name        text not null,
    scope       text not null
        constraint tokens_scope_valid check (scope in ('read', 'coordinator', 'user', 'admin', 'agent')),
    agent_id    text,
    secret_hash bytea not null constraint tokens_secret_hash_key unique,
    created_at  timestamptz not null default now(),
    revoked_at  timestamptz,
    constraint tokens_agent_fkey foreign key (team_id, agent_id) references agents (team_id, id),
    constraint tokens_agent_scope check ((scope = 'agent') = (agent_id is not null)),
    constraint tokens_server_admin check (team_id is not null or scope = 'admin')
);

create table artifacts (
    id              bigint generated always as identity primary key,
    team_id         text not null references teams (id) on delete cascade,
    key             text not null,
    title           text not null,
    kind            text,
    paths           text[] not null default '{}',
    state           text not null
        constraint artifacts_state_valid check (state in
            ('in_review', 'changes_requested', 'in_revision', 'approved', 'deadlocked', 'abandoned')),
    cycle           integer not null default 1,
    revision        bigint not null default 1,
    current_version integer not null default 1,
    original_author text not null,
    -- The remedy of the rejection that opened the current revision: { action, agent, expertise,
    -- reviewer, reason }. Cleared when the next version is written.
    pending_remedy  jsonb,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint artifacts_team_key_key unique (team_id, key),
    constraint artifacts_original_author_fkey foreign key (team_id, original_author) references agents (team_id, id)
);

create table versions (
    artifact_id  bigint not null references artifacts (id) on delete cascade,
    number       integer not null constraint versions_number_positive check (number >= 1),
    team_id      text not null,
    cycle        integer not null,
    author       text not null,
    git_ref      text,
    summary      text,
    submitted_at timestamptz not null default now(),
    constraint versions_pkey primary key (artifact_id, number),
    constraint versions_author_fkey foreign key (team_id, author) references agents (team_id, id)
);

create table version_contributors (
    artifact_id bigint not null,
    number      integer not null,
    team_id     text not null,
    agent_id    text not null,
    role        text not null constraint version_contributors_role_valid check (role in ('co_author', 'pair', 'advisor')),
    position    integer not null,
    constraint version_contributors_pkey primary key (artifact_id, number, agent_id),
    constraint version_contributors_version_fkey foreign key (artifact_id, number) references versions (artifact_id, number) on delete cascade,
    constraint version_contributors_agent_fkey foreign key (team_id, agent_id) references agents (team_id, id)
);

create table reviews (
    id          bigint generated always as identity primary key,
    artifact_id bigint not null,
    number      integer not null,
    team_id     text not null,
    reviewer    text not null,
    verdict     text not null constraint reviews_verdict_valid check (verdict in ('approve', 'reject')),
    kind        text not null default 'review' constraint reviews_kind_valid check (kind in ('review', 'focused_rereview')),
    git_ref     text,
    grounds     text,
    reason      text,
    remedy      jsonb,
    evidence    jsonb,
    created_at  timestamptz not null default now(),
    constraint reviews_one_per_reviewer unique (artifact_id, number, reviewer),
    constraint reviews_version_fkey foreign key (artifact_id, number) references versions (artifact_id, number) on delete cascade,
    constraint reviews_reviewer_fkey foreign key (team_id, reviewer) references agents (team_id, id),
    constraint reviews_rejection_complete check (verdict = 'approve' or (reason is not null and remedy is not null))
);

create table lockouts (
    id          bigint generated always as identity primary key,
    artifact_id bigint not null references artifacts (id) on delete cascade,
    team_id     text not null,
    agent_id    text not null,
    cycle       integer not null,
    number      integer not null,
    review_id   bigint not null references reviews (id),
    locked_at   timestamptz not null default now(),
    cleared_at  timestamptz,
    -- 'approval' (R8) or 'lift' (R10): nothing else clears a lockout.
    cleared_by  text constraint lockouts_cleared_by_valid check (cleared_by in ('approval', 'lift')),
    lift_reason text,
    constraint lockouts_agent_fkey foreign key (team_id, agent_id) references agents (team_id, id),
    constraint lockouts_cleared_consistent check ((cleared_at is null) = (cleared_by is null))
);
create unique index lockouts_one_active on lockouts (artifact_id, agent_id) where cleared_at is null;
-- The checks' hot path: an agent's active lockouts.
create index lockouts_active_by_agent on lockouts (team_id, agent_id) where cleared_at is null;

create table assignments (
    id          bigint generated always as identity primary key,
    artifact_id bigint not null references artifacts (id) on delete cascade,
    team_id     text not null,
    agent_id    text not null,
    cycle       integer not null,
    note        text,
    -- 'coordinator' (R5) or 'user' (a deadlock resolution, R9).
    assigned_by text not null constraint assignments_assigned_by_valid check (assigned_by in ('coordinator', 'user')),
    assigned_at timestamptz not null default now(),
    ended_at    timestamptz,
    -- 'version' (the assignee wrote it) or 'released'.
    ended_by    text constraint assignments_ended_by_valid check (ended_by in ('version', 'released')),
    constraint assignments_agent_fkey foreign key (team_id, agent_id) references agents (team_id, id),
    constraint assignments_ended_consistent check ((ended_at is null) = (ended_by is null))
);
create unique index assignments_one_active on assignments (artifact_id) where ended_at is null;

create table escalations (
    id          bigint generated always as identity primary key,
    artifact_id bigint not null references artifacts (id) on delete cascade,
    team_id     text not null references teams (id) on delete cascade,
    opened_at   timestamptz not null default now(),
    -- The artifact's versions, authors, rejections and lockouts when it deadlocked.
    details     jsonb not null,
    resolved_at timestamptz,
    resolution  jsonb,
    constraint escalations_resolved_consistent check ((resolved_at is null) = (resolution is null))
);
create unique index escalations_one_open on escalations (artifact_id) where resolved_at is null;
create index escalations_open_by_team on escalations (team_id, id) where resolved_at is null;

create table events (
    team_id    text not null references teams (id) on delete cascade,
    seq        bigint not null,
    at         timestamptz not null default now(),
    artifact   text,
    type       text not null,
    actor      text,
    token_id   uuid,
    token_name text,
    data       jsonb not null default '{}',
    constraint events_pkey primary key (team_id, seq)
);

-- R6 in the database: no version may credit an agent locked out of its artifact, whatever
-- code path writes it.
create function refuse_locked_out_credit() returns trigger language plpgsql as $$
declare
    credited text := to_jsonb(new) ->> tg_argv[0];
begin
    if exists (select 1 from lockouts
               where artifact_id = new.artifact_id and agent_id = credited and cleared_at is null) then
        raise exception 'agent % is locked out of artifact %', credited, new.artifact_id
            using errcode = 'check_violation', constraint = 'versions_credit_not_locked_out';
    end if;
    return new;
end $$;

create trigger versions_author_not_locked_out before insert on versions
    for each row execute function refuse_locked_out_credit('author');
create trigger version_contributors_not_locked_out before insert on version_contributors
    for each row execute function refuse_locked_out_credit('agent_id');
