-- write_cycle: one protocol cycle = five HTTP requests = five transactions, statement for
-- statement what src/service/artifacts.rs create, review (reject), assign, submit_version and
-- review (approve) issue. Variables (-D): team, tokid (the
-- token's id), author, reviser, authors ('{<author>}'), rev_actor.
-- Kept in step by tests/api/bench_sql.rs, which compares these statements with those the
-- service sends for the same five requests; every statement names the function it mirrors.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
-- The artifact's key is 'pgb-<k>', k drawn from 10^18 (the service's insert returns only the
-- id, so the key cannot come back from it).
\set k random(1, 1000000000000000000)

-- 1. POST /artifacts: src/service/artifacts.rs create
begin;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs insert
insert into artifacts (team_id, key, title, kind, paths, state, original_author) values (:team, 'pgb-' || :k::text, 'Bench cycle', null, '{src/pgb/**}'::text[], 'in_review', :author) on conflict (team_id, key) do nothing returning id \gset
-- mirrors: src/store/artifacts.rs insert_version (the trigger versions_author_not_locked_out runs)
insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary) values (:id, 1, :team, 1, :author, 'a1', null);
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts.rs escalation (via src/service/artifacts.rs status)
select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id where e.artifact_id = :a_id and e.resolved_at is null;
-- mirrors: src/store/events.rs append (src/service/write.rs Write::commit), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'artifact.created', :author, :tokid::uuid, 'loadgen', '{"version": 1,"author": "eng-0","contributors": null,"title": "Bench cycle"}'::jsonb from s, n returning seq;
commit;

-- 2. POST /versions/1/reviews (reject): src/service/artifacts.rs review
begin;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text for no key update \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs insert_review
insert into reviews as r (artifact_id, number, team_id, reviewer, verdict, kind, git_ref, grounds, reason, remedy, evidence) values (:a_id, 1, :team, 'rev', 'reject', 'review', null, 'quality', 'Missing tests.', '{"action": "reassign"}'::jsonb, null) returning r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at \gset rv_
-- mirrors: src/store/artifacts.rs insert_lockouts
insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id) select :a_id, :team, agent, 1, 1, :rv_id from unnest(:authors::text[]) as agent;
-- mirrors: src/store/artifacts.rs update
update artifacts set state = 'changes_requested', cycle = 1, current_version = 1, pending_remedy = '{"action": "reassign","agent": null,"expertise": [],"reviewer": "rev","reason": "Missing tests."}'::jsonb, revision = revision + 1, updated_at = now() where id = :a_id;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts.rs escalation (via src/service/artifacts.rs status)
select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id where e.artifact_id = :a_id and e.resolved_at is null;
-- mirrors: src/store/events.rs append (src/service/write.rs Write::commit), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'review.rejected', :rev_actor, :tokid::uuid, 'loadgen', '{"version": 1,"reviewer": "rev","verdict": "reject","kind": "review","state": "changes_requested","lockouts": ["eng-0"],"reason": "Missing tests.","remedy": {"action": "reassign"}}'::jsonb from s, n returning seq;
commit;

-- 3. POST /assignment: src/service/artifacts.rs assign
begin;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text for no key update \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs insert_assignment
insert into assignments (artifact_id, team_id, agent_id, cycle, note, assigned_by) values (:a_id, :team, :reviser, 1, null, 'coordinator');
-- mirrors: src/store/artifacts.rs update
update artifacts set state = 'in_revision', cycle = 1, current_version = 1, pending_remedy = '{"action": "reassign","agent": null,"expertise": [],"reviewer": "rev","reason": "Missing tests."}'::jsonb, revision = revision + 1, updated_at = now() where id = :a_id;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts.rs escalation (via src/service/artifacts.rs status)
select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id where e.artifact_id = :a_id and e.resolved_at is null;
-- mirrors: src/store/events.rs append (src/service/write.rs Write::commit), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'assignment.created', :reviser, :tokid::uuid, 'loadgen', '{"agent": "eng-1","note": null,"state": "in_revision"}'::jsonb from s, n returning seq;
commit;

-- 4. POST /versions (revision): src/service/artifacts.rs submit_version
begin;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text for no key update \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs insert_version
insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary) values (:a_id, 2, :team, 1, :reviser, 'b2', null);
-- mirrors: src/store/artifacts.rs end_assignment
update assignments set ended_at = now(), ended_by = 'version' where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts.rs update
update artifacts set state = 'in_review', cycle = 1, current_version = 2, pending_remedy = null, revision = revision + 1, updated_at = now() where id = :a_id;
-- mirrors: src/store/artifacts.rs versions (src/service/artifacts.rs version_view)
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number > 1 order by number limit 1;
-- mirrors: src/store/artifacts.rs all_contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id order by number, position;
-- mirrors: src/store/artifacts.rs reviews
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r where r.artifact_id = :a_id order by r.id;
-- mirrors: src/store/events.rs append (src/service/write.rs Write::commit), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'version.submitted', :reviser, :tokid::uuid, 'loadgen', '{"version": 2,"cycle": 1,"kind": "revision","author": "eng-1","contributors": null,"state": "in_review"}'::jsonb from s, n returning seq;
commit;

-- 5. POST /versions/2/reviews (approve): src/service/artifacts.rs review
begin;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text for no key update \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs insert_review
insert into reviews as r (artifact_id, number, team_id, reviewer, verdict, kind, git_ref, grounds, reason, remedy, evidence) values (:a_id, 2, :team, 'rev', 'approve', 'review', null, null, null, null, null) returning r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at \gset rv_
-- mirrors: src/store/artifacts.rs clear_lockouts
update lockouts set cleared_at = now(), cleared_by = 'approval' where artifact_id = :a_id and cleared_at is null;
-- mirrors: src/store/artifacts.rs update
update artifacts set state = 'approved', cycle = 1, current_version = 2, pending_remedy = null, revision = revision + 1, updated_at = now() where id = :a_id;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'pgb-' || :k::text \gset a_
-- mirrors: src/store/artifacts.rs version
select number, cycle, author, git_ref, summary, submitted_at from versions where artifact_id = :a_id and number = :a_current_version;
-- mirrors: src/store/artifacts.rs contributors
select number, agent_id, role from version_contributors where artifact_id = :a_id and number = :a_current_version order by position;
-- mirrors: src/store/artifacts.rs load (the cycle's reviews)
select r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = :a_id and v.cycle = :a_cycle order by r.id;
-- mirrors: src/store/artifacts.rs artifact_lockouts
select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join artifacts a on a.id = l.artifact_id join reviews r on r.id = l.review_id where l.artifact_id = :a_id and l.cleared_at is null order by l.agent_id;
-- mirrors: src/store/artifacts.rs load (the active assignment)
select agent_id, note, assigned_by, assigned_at from assignments where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts.rs escalation (via src/service/artifacts.rs status)
select e.id, a.key as artifact, e.opened_at, e.details from escalations e join artifacts a on a.id = e.artifact_id where e.artifact_id = :a_id and e.resolved_at is null;
-- mirrors: src/store/events.rs append (src/service/write.rs Write::commit), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'review.approved', :rev_actor, :tokid::uuid, 'loadgen', '{"version": 2,"reviewer": "rev","verdict": "approve","kind": "review","state": "approved"}'::jsonb from s, n returning seq;
commit;
