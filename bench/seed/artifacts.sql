-- Seeds status artifacts st-FROM..st-TO of a scale team with their history, for the scale part of
-- bench/run (BENCHMARKS.md). The team, its agents (eng-0..eng-7, rev) and its coordinator token
-- come first, from `loadgen setup --status-artifacts 0`. bench/run runs one range per core at once:
--
--   psql -X -v team=T -v from=1 -v to=N -f bench/seed/artifacts.sql DB
--
-- st-1..st-8 (st-1..st-K with `-v locked=K`) look like the ones `loadgen setup` makes: version 1 by eng-(n % 8), rejected once by
-- `rev` (reassign), so each engineer holds one active lockout. Every later st-n went through the
-- load generator's write_cycle and was approved: version 1 by eng-(n % 8), rejected (its lockout
-- cleared by the approval), assigned to eng-((n + 1) % 8) (ended by its version), version 2 by
-- that engineer, approved (revision 5). So versions, reviews, lockouts and assignments grow with
-- the artifacts while the active set (8 lockouts, no open assignment or escalation) stays put.
--
-- Set-based inserts in one transaction, with every constraint and trigger of migrations/ enforced
-- (foreign keys, versions_author_not_locked_out, the team_counters triggers). Not mirrored service
-- SQL: tests/api/bench_sql.rs does not read it.

\set ON_ERROR_STOP on
-- `-v locked=K` rejects st-1..st-K instead of st-1..st-8 (each an active lockout of eng-(n % 8)).
\if :{?locked}
\else
\set locked 8
\endif
set synchronous_commit = off;
begin;

-- The artifacts, and n -> id for the inserts below.
create temporary table seed_artifacts (n int primary key, id bigint not null) on commit drop;
with a as (
    insert into artifacts (team_id, key, title, paths, state, cycle, revision, current_version,
                           original_author, pending_remedy)
    select :'team', 'st-' || n, 'Status artifact ' || n, array['src/st-' || n || '/**'],
           case when n <= :locked then 'changes_requested' else 'approved' end, 1,
           case when n <= :locked then 2 else 5 end, case when n <= :locked then 1 else 2 end,
           'eng-' || n % 8,
           case when n <= :locked then '{"action": "reassign", "agent": null, "expertise": [], "reviewer": "rev", "reason": "Not yet."}'::jsonb end
    from generate_series(:from::int, :to::int) as n
    returning id, key
)
insert into seed_artifacts (n, id) select substr(key, 4)::int, id from a;

-- Versions: 1 by the original author, 2 (n > :locked) by the engineer it was reassigned to. Written
-- before the lockouts, as in the protocol (versions_author_not_locked_out runs for each).
insert into versions (artifact_id, number, team_id, cycle, author, git_ref)
select s.id, 1, :'team', 1, 'eng-' || s.n % 8, 'a1' from seed_artifacts s order by s.n;
insert into versions (artifact_id, number, team_id, cycle, author, git_ref)
select s.id, 2, :'team', 1, 'eng-' || (s.n + 1) % 8, 'b2' from seed_artifacts s where s.n > :locked order by s.n;

-- Reviews: the rejection of version 1, then (n > :locked) the approval of version 2.
insert into reviews (artifact_id, number, team_id, reviewer, verdict, grounds, reason, remedy)
select s.id, 1, :'team', 'rev', 'reject',
       case when s.n > :locked then 'quality' end,
       case when s.n <= :locked then 'Not yet.' else 'Missing tests.' end,
       '{"action": "reassign"}'::jsonb
from seed_artifacts s order by s.n;
insert into reviews (artifact_id, number, team_id, reviewer, verdict)
select s.id, 2, :'team', 'rev', 'approve' from seed_artifacts s where s.n > :locked order by s.n;

-- The rejected authors' lockouts: active for st-1..st-8, cleared by the approval otherwise.
insert into lockouts (artifact_id, team_id, agent_id, cycle, number, review_id, cleared_at, cleared_by)
select s.id, :'team', 'eng-' || s.n % 8, 1, 1, r.id,
       case when s.n > :locked then now() end, case when s.n > :locked then 'approval' end
from seed_artifacts s join reviews r on r.team_id = :'team' and r.artifact_id = s.id and r.number = 1 and r.reviewer = 'rev'
order by s.n;

-- The reassignments, ended by version 2.
insert into assignments (artifact_id, team_id, agent_id, cycle, assigned_by, ended_at, ended_by)
select s.id, :'team', 'eng-' || (s.n + 1) % 8, 1, 'coordinator', now(), 'version'
from seed_artifacts s where s.n > :locked order by s.n;

commit;
