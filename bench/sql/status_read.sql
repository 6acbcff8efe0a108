-- status_read: GET /v1/teams/{team}/artifacts/{key} (src/http/artifacts.rs get_artifact), half
-- of them answered 304 after the revisions alone (If-None-Match matching), half in full
-- (src/app get). One autocommit statement each, as the service runs it on a
-- pooled connection. Variables (-D): team, nart (status artifacts st-1..st-nart).
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set n random(1, :nart)
\set full random(0, 1)
\if :full
-- mirrors: src/store/artifacts/load.rs load (the team's policy, roster and revision, the artifact with its version, contributors, cycle's reviews, lockouts, assignment and escalation, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id), '[]') as roster, (select json_build_object( 'artifact', to_json(a), 'current', (select to_json(v) from versions v where v.team_id = a.team_id and v.artifact_id = a.id and v.number = a.current_version), 'contributors', coalesce((select json_agg(c order by c.position) from version_contributors c where c.team_id = a.team_id and c.artifact_id = a.id and c.number = a.current_version), '[]'), 'cycle_reviews', coalesce((select json_agg(r order by r.id) from reviews r join versions v on v.team_id = r.team_id and v.artifact_id = r.artifact_id and v.number = r.number where r.team_id = a.team_id and r.artifact_id = a.id and v.cycle = a.cycle), '[]'), 'lockouts', coalesce((select json_agg(x order by x.agent_id) from (select a.key as artifact, l.agent_id, l.number, r.reason, r.reviewer, l.locked_at from lockouts l join reviews r on r.team_id = l.team_id and r.id = l.review_id where l.team_id = a.team_id and l.artifact_id = a.id and l.cleared_at is null) x), '[]'), 'assignment', (select to_json(s) from assignments s where s.team_id = a.team_id and s.artifact_id = a.id and s.ended_at is null), 'escalation', (select json_build_object('id', e.id, 'artifact', a.key, 'opened_at', e.opened_at, 'details', e.details) from escalations e where e.team_id = a.team_id and e.artifact_id = a.id and e.resolved_at is null)) from artifacts a where a.team_id = t.id and a.key = 'st-' || :n::text) as artifact, '[]'::json as locked_paths from teams t where t.id = :team;
\else
-- mirrors: src/store/artifacts/load.rs revisions (the ETag: the artifact's revision and its team's)
select a.revision, t.revision from teams t left join artifacts a on a.team_id = t.id and a.key = 'st-' || :n::text where t.id = :team;
\endif
