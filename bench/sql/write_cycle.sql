-- write_cycle: one protocol cycle = five HTTP requests = five transactions, statement for
-- statement what src/app create, review (reject), assign, submit_version and
-- review (approve) issue. Variables (-D): team, tokid (the token's id), author, reviser,
-- authors ('{<author>}'), rev_actor.
-- Kept in step by tests/api/bench_sql.rs, which compares these statements with those the
-- service sends for the same five requests; every statement names the function it mirrors.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
-- A write takes its team's gate shared, locks the artifact's row and shares its team's, then
-- loads the team and the artifact in one statement that returns them as JSON, which pgbench
-- cannot take apart: the values later statements need come from rows that inserts return (the
-- artifact's id from its insert, the rejection's id and reason from the review's), as the
-- service takes them from the rows it loaded. The artifact's key is 'pgb-<k>', k drawn from 10^18.
\set k random(1, 1000000000000000000)

-- 1. POST /artifacts: src/app create
begin;
-- mirrors: src/store/teams.rs share (the team's gate shared, then its row; the roster holds still until the commit)
with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext(:team))) select 1 from teams where id = :team and exists (select from gate) for share;
-- mirrors: src/store/artifacts/load.rs load_team (src/app create: the team's policy and roster, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, null::json as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
-- mirrors: src/store/artifacts/write.rs insert
insert into artifacts (team_id, key, title, kind, paths, state, original_author) values (:team, 'pgb-' || :k::text, 'Bench cycle', null, '{src/pgb/**}'::text[], 'in_review', :author) on conflict (team_id, key) do nothing returning id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at \gset a_
-- mirrors: src/store/artifacts/write.rs insert_version (the trigger versions_author_not_locked_out runs)
insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary) values (:a_id, 1, :team, 1, :author, 'a1', null) returning number, cycle, author, git_ref, summary, submitted_at;
-- mirrors: src/store/events.rs append (src/app/unit.rs run), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'artifact.created', :author, :tokid::uuid, 'loadgen', '{"version": 1,"author": "eng-0","contributors": null,"title": "Bench cycle"}'::jsonb from s, n returning seq;
commit;

-- 2. POST /versions/1/reviews (reject): src/app review
begin;
-- mirrors: src/store/artifacts/load.rs lock (the team's gate shared, then the artifact's row for no key update, its team's for share)
with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext(:team))) select 1 from artifacts a join teams t on t.id = a.team_id where a.team_id = :team and a.key = 'pgb-' || :k::text and exists (select from gate) for no key update of a for share of t;
-- mirrors: src/store/artifacts/load.rs load (src/app open: the team's policy and roster, the artifact with its version, contributors, cycle's reviews, lockouts, assignment and escalation, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, (select json_build_object( 'artifact', to_json(a), 'current', (select to_json(v) from versions v where v.artifact_id = a.id and v.number = a.current_version), 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c where c.artifact_id = a.id and c.number = a.current_version), '[]'), 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = a.id and v.cycle = a.cycle), '[]'), 'lockouts', coalesce((select json_agg(x order by x.agent_id) from (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join reviews r on r.id = l.review_id where l.artifact_id = a.id and l.cleared_at is null) x), '[]'), 'assignment', (select to_json(s) from assignments s where s.artifact_id = a.id and s.ended_at is null), 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details) from escalations e where e.artifact_id = a.id and e.resolved_at is null)) from artifacts a where a.team_id = t.id and a.key = 'pgb-' || :k::text) as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
-- mirrors: src/store/artifacts/write.rs insert_review
insert into reviews as r (artifact_id, number, team_id, reviewer, verdict, kind, git_ref, grounds, reason, remedy, evidence) values (:a_id, 1, :team, 'rev', 'reject', 'review', null, 'quality', 'Missing tests.', '{"action": "reassign"}'::jsonb, null) returning r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at \gset rv_
-- mirrors: src/store/artifacts/write.rs insert_lockouts
insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id) select :a_id, :team, agent, 1, 1, :rv_id from unnest(:authors::text[]) as agent returning 'pgb-' || :k::text as artifact, agent_id, number, :rv_reason::text as reason, :rv_reviewer::text as reviewer, locked_at;
-- mirrors: src/store/artifacts/write.rs update
update artifacts set state = 'changes_requested', cycle = 1, current_version = 1, pending_remedy = '{"action": "reassign","agent": null,"expertise": [],"reviewer": "rev","reason": "Missing tests."}'::jsonb, revision = revision + 1, updated_at = now() where id = :a_id returning id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at;
-- mirrors: src/store/events.rs append (src/app/unit.rs run), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'review.rejected', :rev_actor, :tokid::uuid, 'loadgen', '{"version": 1,"reviewer": "rev","verdict": "reject","kind": "review","state": "changes_requested","lockouts": ["eng-0"],"reason": "Missing tests.","remedy": {"action": "reassign"}}'::jsonb from s, n returning seq;
commit;

-- 3. POST /assignment: src/app assign
begin;
-- mirrors: src/store/artifacts/load.rs lock (the team's gate shared, then the artifact's row for no key update, its team's for share)
with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext(:team))) select 1 from artifacts a join teams t on t.id = a.team_id where a.team_id = :team and a.key = 'pgb-' || :k::text and exists (select from gate) for no key update of a for share of t;
-- mirrors: src/store/artifacts/load.rs load (src/app open: the team's policy and roster, the artifact with its version, contributors, cycle's reviews, lockouts, assignment and escalation, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, (select json_build_object( 'artifact', to_json(a), 'current', (select to_json(v) from versions v where v.artifact_id = a.id and v.number = a.current_version), 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c where c.artifact_id = a.id and c.number = a.current_version), '[]'), 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = a.id and v.cycle = a.cycle), '[]'), 'lockouts', coalesce((select json_agg(x order by x.agent_id) from (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join reviews r on r.id = l.review_id where l.artifact_id = a.id and l.cleared_at is null) x), '[]'), 'assignment', (select to_json(s) from assignments s where s.artifact_id = a.id and s.ended_at is null), 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details) from escalations e where e.artifact_id = a.id and e.resolved_at is null)) from artifacts a where a.team_id = t.id and a.key = 'pgb-' || :k::text) as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
-- mirrors: src/store/artifacts/write.rs insert_assignment
insert into assignments (artifact_id, team_id, agent_id, cycle, note, assigned_by) values (:a_id, :team, :reviser, 1, null, 'coordinator') returning agent_id, note, assigned_by, assigned_at;
-- mirrors: src/store/artifacts/write.rs update (src/app set_state)
update artifacts set state = 'in_revision', cycle = 1, current_version = 1, pending_remedy = '{"action": "reassign","agent": null,"expertise": [],"reviewer": "rev","reason": "Missing tests."}'::jsonb, revision = revision + 1, updated_at = now() where id = :a_id returning id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at;
-- mirrors: src/store/events.rs append (src/app/unit.rs run), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'assignment.created', :reviser, :tokid::uuid, 'loadgen', '{"agent": "eng-1","note": null,"state": "in_revision"}'::jsonb from s, n returning seq;
commit;

-- 4. POST /versions (revision): src/app submit_version
begin;
-- mirrors: src/store/artifacts/load.rs lock (the team's gate shared, then the artifact's row for no key update, its team's for share)
with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext(:team))) select 1 from artifacts a join teams t on t.id = a.team_id where a.team_id = :team and a.key = 'pgb-' || :k::text and exists (select from gate) for no key update of a for share of t;
-- mirrors: src/store/artifacts/load.rs load (src/app open: the team's policy and roster, the artifact with its version, contributors, cycle's reviews, lockouts, assignment and escalation, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, (select json_build_object( 'artifact', to_json(a), 'current', (select to_json(v) from versions v where v.artifact_id = a.id and v.number = a.current_version), 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c where c.artifact_id = a.id and c.number = a.current_version), '[]'), 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = a.id and v.cycle = a.cycle), '[]'), 'lockouts', coalesce((select json_agg(x order by x.agent_id) from (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join reviews r on r.id = l.review_id where l.artifact_id = a.id and l.cleared_at is null) x), '[]'), 'assignment', (select to_json(s) from assignments s where s.artifact_id = a.id and s.ended_at is null), 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details) from escalations e where e.artifact_id = a.id and e.resolved_at is null)) from artifacts a where a.team_id = t.id and a.key = 'pgb-' || :k::text) as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
-- mirrors: src/store/artifacts/write.rs insert_version
insert into versions (artifact_id, number, team_id, cycle, author, git_ref, summary) values (:a_id, 2, :team, 1, :reviser, 'b2', null) returning number, cycle, author, git_ref, summary, submitted_at;
-- mirrors: src/store/artifacts/write.rs end_assignment
update assignments set ended_at = now(), ended_by = 'version' where artifact_id = :a_id and ended_at is null;
-- mirrors: src/store/artifacts/write.rs update
update artifacts set state = 'in_review', cycle = 1, current_version = 2, pending_remedy = null, revision = revision + 1, updated_at = now() where id = :a_id returning id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at;
-- mirrors: src/store/events.rs append (src/app/unit.rs run), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'version.submitted', :reviser, :tokid::uuid, 'loadgen', '{"version": 2,"cycle": 1,"kind": "revision","author": "eng-1","contributors": null,"state": "in_review"}'::jsonb from s, n returning seq;
commit;

-- 5. POST /versions/2/reviews (approve): src/app review
begin;
-- mirrors: src/store/artifacts/load.rs lock (the team's gate shared, then the artifact's row for no key update, its team's for share)
with gate as (select pg_advisory_xact_lock_shared(hashtext('reviewlock.team'), hashtext(:team))) select 1 from artifacts a join teams t on t.id = a.team_id where a.team_id = :team and a.key = 'pgb-' || :k::text and exists (select from gate) for no key update of a for share of t;
-- mirrors: src/store/artifacts/load.rs load (src/app open: the team's policy and roster, the artifact with its version, contributors, cycle's reviews, lockouts, assignment and escalation, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, (select json_build_object( 'artifact', to_json(a), 'current', (select to_json(v) from versions v where v.artifact_id = a.id and v.number = a.current_version), 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c where c.artifact_id = a.id and c.number = a.current_version), '[]'), 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r join versions v on v.artifact_id = r.artifact_id and v.number = r.number where r.artifact_id = a.id and v.cycle = a.cycle), '[]'), 'lockouts', coalesce((select json_agg(x order by x.agent_id) from (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join reviews r on r.id = l.review_id where l.artifact_id = a.id and l.cleared_at is null) x), '[]'), 'assignment', (select to_json(s) from assignments s where s.artifact_id = a.id and s.ended_at is null), 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details) from escalations e where e.artifact_id = a.id and e.resolved_at is null)) from artifacts a where a.team_id = t.id and a.key = 'pgb-' || :k::text) as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
-- mirrors: src/store/artifacts/write.rs insert_review
insert into reviews as r (artifact_id, number, team_id, reviewer, verdict, kind, git_ref, grounds, reason, remedy, evidence) values (:a_id, 2, :team, 'rev', 'approve', 'review', null, null, null, null, null) returning r.id, r.number, r.reviewer, r.verdict, r.kind, r.git_ref, r.grounds, r.reason, r.remedy, r.evidence, r.created_at;
-- mirrors: src/store/artifacts/write.rs clear_lockouts
update lockouts set cleared_at = now(), cleared_by = 'approval' where artifact_id = :a_id and cleared_at is null;
-- mirrors: src/store/artifacts/write.rs update
update artifacts set state = 'approved', cycle = 1, current_version = 2, pending_remedy = null, revision = revision + 1, updated_at = now() where id = :a_id returning id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at;
-- mirrors: src/store/events.rs append (src/app/unit.rs run), then commit
with s as (update team_seqs set last_event_seq = last_event_seq + 1 where team_id = :team returning last_event_seq), n as (select pg_notify('reviewlock_events', :team)) insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data) select :team, s.last_event_seq, 'pgb-' || :k::text, 'review.approved', :rev_actor, :tokid::uuid, 'loadgen', '{"version": 2,"reviewer": "rev","verdict": "approve","kind": "review","state": "approved"}'::jsonb from s, n returning seq;
commit;
