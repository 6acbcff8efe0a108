-- Seeds events FIRST+FROM..FIRST+TO of a scale team's log, for the scale part of bench/run
-- (BENCHMARKS.md); bench/run runs one range per core at once, then moves the team's
-- last_event_seq past them:
--
--   psql -X -v team=T -v first=S -v from=1 -v to=E -v artifacts=N -f bench/seed/events.sql DB
--
-- Event i is one of the five events of a write cycle (the load generator's: created, rejected,
-- assigned, revised, approved; same types and data as the service writes) of st-n, the cycles
-- taking st-1, st-2, ..., st-N in turn and starting over after st-N; actor and token as the
-- service records them for the coordinator token `loadgen`.
--
-- One set-based insert, the foreign key enforced. Not mirrored service SQL: tests/api/bench_sql.rs
-- does not read it.

\set ON_ERROR_STOP on
set synchronous_commit = off;
select id as seed_token from tokens where team_id = :'team' and name = 'loadgen' \gset
insert into events (team_id, seq, artifact, type, actor, token_id, token_name, data)
select :'team', :first::bigint + i, 'st-' || n,
       (array['artifact.created', 'review.rejected', 'assignment.created', 'version.submitted',
              'review.approved'])[step + 1],
       case step when 0 then a when 1 then 'rev' when 2 then b when 3 then b else 'rev' end,
       :'seed_token'::uuid, 'loadgen',
       case step
           when 0 then jsonb_build_object('version', 1, 'author', a, 'contributors', null,
                                          'title', 'Status artifact ' || n)
           when 1 then jsonb_build_object('version', 1, 'reviewer', 'rev', 'verdict', 'reject',
                                          'kind', 'review', 'state', 'changes_requested',
                                          'lockouts', jsonb_build_array(a), 'reason', 'Missing tests.',
                                          'remedy', '{"action": "reassign"}'::jsonb)
           when 2 then jsonb_build_object('agent', b, 'note', null, 'state', 'in_revision')
           when 3 then jsonb_build_object('version', 2, 'cycle', 1, 'kind', 'revision', 'author', b,
                                          'contributors', null, 'state', 'in_review')
           else jsonb_build_object('version', 2, 'reviewer', 'rev', 'verdict', 'approve',
                                   'kind', 'review', 'state', 'approved')
       end
from generate_series(:from::bigint, :to::bigint) as i,
     lateral (select 1 + ((i - 1) / 5) % :artifacts as n, ((i - 1) % 5)::int as step) as c,
     lateral (select 'eng-' || c.n % 8 as a, 'eng-' || (c.n + 1) % 8 as b) as who;
