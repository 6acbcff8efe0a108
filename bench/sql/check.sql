-- check: POST /v1/teams/{team}/checks for an agent and three paths (src/service/artifacts.rs
-- check without an artifact). Autocommit statements. Variables (-D): team, hash.
\set e random(0, 7)
-- mirrors: src/store/tokens.rs find_by_hash (the Caller extractor, src/http/extract.rs; autocommit)
select id, team_id, name, scope, agent_id, created_at from tokens where secret_hash = :hash::bytea and revoked_at is null;
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs find
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team and id = 'eng-' || :e::text;
-- mirrors: src/store/artifacts.rs locked_paths
select a.key as artifact, a.paths from lockouts l join artifacts a on a.id = l.artifact_id where l.team_id = :team and l.agent_id = 'eng-' || :e::text and l.cleared_at is null and a.state <> 'abandoned' order by a.key;
