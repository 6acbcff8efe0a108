-- Every team's rows are keyed by the team: `team_id` leads every primary key, unique constraint
-- and foreign key between team tables, so each table can be distributed by `team_id` (Citus,
-- docs/scaling.md) and every statement of a team finds its rows on one shard. The rows stay as
-- they are; only keys, and the server-wide tokens' table, change.
--
-- Global, on purpose: the ids the identity columns hand out (artifacts, reviews, lockouts,
-- assignments, escalations) stay unique across teams as a side effect of their sequences, but are
-- only ever looked up with their team; token ids are random uuids, likewise looked up with their
-- team. `server_tokens` holds the tokens of no team: it is the one table that is not a team's.

-- Foreign keys that reference the keys about to change go first.
alter table versions drop constraint versions_artifact_id_fkey;
alter table version_contributors drop constraint version_contributors_version_fkey;
alter table reviews drop constraint reviews_version_fkey;
alter table lockouts drop constraint lockouts_artifact_id_fkey;
alter table lockouts drop constraint lockouts_review_id_fkey;
alter table assignments drop constraint assignments_artifact_id_fkey;
alter table escalations drop constraint escalations_artifact_id_fkey;

-- Primary keys and unique constraints, each led by the team.
alter table artifacts drop constraint artifacts_pkey,
    add constraint artifacts_pkey primary key (team_id, id);
alter table versions drop constraint versions_pkey,
    add constraint versions_pkey primary key (team_id, artifact_id, number);
alter table version_contributors drop constraint version_contributors_pkey,
    add constraint version_contributors_pkey primary key (team_id, artifact_id, number, agent_id);
alter table reviews drop constraint reviews_pkey,
    add constraint reviews_pkey primary key (team_id, id);
alter table reviews drop constraint reviews_one_per_reviewer,
    add constraint reviews_one_per_reviewer unique (team_id, artifact_id, number, reviewer);
alter table lockouts drop constraint lockouts_pkey,
    add constraint lockouts_pkey primary key (team_id, id);
alter table assignments drop constraint assignments_pkey,
    add constraint assignments_pkey primary key (team_id, id);
alter table escalations drop constraint escalations_pkey,
    add constraint escalations_pkey primary key (team_id, id);

drop index lockouts_one_active;
create unique index lockouts_one_active on lockouts (team_id, artifact_id, agent_id) where cleared_at is null;
drop index assignments_one_active;
create unique index assignments_one_active on assignments (team_id, artifact_id) where ended_at is null;
drop index escalations_one_open;
create unique index escalations_one_open on escalations (team_id, artifact_id) where resolved_at is null;

-- Foreign keys between team tables, each through the team: a row can only reference a row of its
-- own team (before, a version's `team_id` and its artifact's could have differed).
alter table versions add constraint versions_artifact_fkey
    foreign key (team_id, artifact_id) references artifacts (team_id, id) on delete cascade;
alter table version_contributors add constraint version_contributors_version_fkey
    foreign key (team_id, artifact_id, number) references versions (team_id, artifact_id, number) on delete cascade;
alter table reviews add constraint reviews_version_fkey
    foreign key (team_id, artifact_id, number) references versions (team_id, artifact_id, number) on delete cascade;
alter table lockouts add constraint lockouts_artifact_fkey
    foreign key (team_id, artifact_id) references artifacts (team_id, id) on delete cascade;
alter table lockouts add constraint lockouts_review_fkey
    foreign key (team_id, review_id) references reviews (team_id, id);
alter table assignments add constraint assignments_artifact_fkey
    foreign key (team_id, artifact_id) references artifacts (team_id, id) on delete cascade;
alter table escalations add constraint escalations_artifact_fkey
    foreign key (team_id, artifact_id) references artifacts (team_id, id) on delete cascade;

-- R6 in the database, now reading the lockouts of the artifact's team only.
create or replace function refuse_locked_out_credit() returns trigger language plpgsql as $$
declare
    credited text := to_jsonb(new) ->> tg_argv[0];
begin
    if exists (select 1 from lockouts
               where team_id = new.team_id and artifact_id = new.artifact_id and agent_id = credited
                 and cleared_at is null) then
        raise exception 'agent % is locked out of artifact %', credited, new.artifact_id
            using errcode = 'check_violation', constraint = 'versions_credit_not_locked_out';
    end if;
    return new;
end $$;

-- Server-wide tokens (of no team, always `admin`) get a table of their own: a team's tokens are
-- then a team table like the others, and these few rows, written rarely, are the global ones
-- (a reference table under Citus).
create table server_tokens (
    id          uuid constraint server_tokens_pkey primary key,
    name        text not null,
    secret_hash bytea not null constraint server_tokens_secret_hash_key unique,
    created_at  timestamptz not null default now(),
    revoked_at  timestamptz
);
insert into server_tokens (id, name, secret_hash, created_at, revoked_at)
select id, name, secret_hash, created_at, revoked_at from tokens where team_id is null;
delete from tokens where team_id is null;

alter table tokens drop constraint tokens_server_admin;
alter table tokens alter column team_id set not null;
alter table tokens drop constraint tokens_pkey,
    add constraint tokens_pkey primary key (team_id, id);
-- A secret is 256 random bits: unique across teams in fact; the database can hold it unique
-- within a team, the most a table distributed by team can.
alter table tokens drop constraint tokens_secret_hash_key,
    add constraint tokens_secret_hash_key unique (team_id, secret_hash);
-- The lookup of a bearer secret, which names no team (docs/scaling.md, "Across teams").
create index tokens_by_secret_hash on tokens (secret_hash);

-- Idempotency keys belong to the team the request writes to: ('', token, key) for a write of no
-- team (a server-wide token's creation). A team token only ever writes to its own team, so its
-- keys move there exactly; a server-wide token's keys cannot tell which team their request
-- named, so they move to '' and stop replaying a write to a team (keys live 24 hours).
alter table idempotency_keys add column team_id text not null default '';
update idempotency_keys k set team_id = t.team_id from tokens t where t.id = k.token_id;
alter table idempotency_keys alter column team_id drop default;
alter table idempotency_keys drop constraint idempotency_keys_pkey,
    add constraint idempotency_keys_pkey primary key (team_id, token_id, key);
