-- check: POST /v1/teams/{team}/checks for an agent and three paths (src/app
-- check without an artifact). One autocommit statement. Variables (-D): team.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set e random(0, 7)
-- mirrors: src/store/artifacts/load.rs load_check (a check of paths alone: the agent, the team's policy, and the agent's locked paths, as JSON)
select t.profile, t.required_approvals, t.revision, coalesce((select json_agg(json_build_object('id', g.id, 'active', g.active, 'can_review', g.can_review, 'can_author', g.can_author, 'expertise', g.expertise)) from agents g where g.team_id = t.id and g.id = 'eng-' || :e::text), '[]') as roster, null::json as artifact, coalesce((select json_agg(json_build_object('artifact', p.key, 'paths', p.paths) order by p.key) from lockouts l join artifacts p on p.id = l.artifact_id where l.team_id = t.id and l.agent_id = 'eng-' || :e::text and l.cleared_at is null and p.state <> 'abandoned'), '[]') as locked_paths from teams t where t.id = :team;
