-- status_read: GET /v1/teams/{team}/artifacts/{key} (src/http/artifacts.rs get_artifact), half
-- of them answered 304 after the revision alone (If-None-Match matching), half in full
-- (src/service/artifacts.rs get). Autocommit statements, as the service runs them on a pooled
-- connection. Variables (-D): team, nart (status artifacts st-1..st-nart).
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set n random(1, :nart)
\set full random(0, 1)
\if :full
-- mirrors: src/store/teams.rs find
select id, display_name, profile, required_approvals, created_at, updated_at from teams where id = :team;
-- mirrors: src/store/agents.rs roster
select id, display_name, kind, roles, can_review, can_author, expertise, active, created_at, updated_at from agents where team_id = :team;
-- mirrors: src/store/artifacts.rs load
select id, key, title, kind, paths, state, cycle, revision, current_version, original_author, pending_remedy, created_at, updated_at from artifacts where team_id = :team and key = 'st-' || :n::text \gset a_
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
\else
-- mirrors: src/store/artifacts.rs revision
select revision from artifacts where team_id = :team and key = 'st-' || :n::text;
\endif
