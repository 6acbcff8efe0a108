-- check: POST /v1/teams/{team}/checks for an agent and three paths (src/service/artifacts.rs
-- check without an artifact). Autocommit statements. Variables (-D): team.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set e random(0, 7)
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs find
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team and id = 'eng-' || :e::text;
-- mirrors: src/store/artifacts.rs locked_paths
select a.key as artifact, a.paths from lockouts l join artifacts a on a.id = l.artifact_id where l.team_id = :team and l.agent_id = 'eng-' || :e::text and l.cleared_at is null and a.state <> 'abandoned' order by a.key;
