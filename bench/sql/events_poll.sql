-- events_poll: GET /v1/teams/{team}/events?after=R&limit=100 (src/http/team_views.rs events,
-- wait=0). Autocommit statements. Variables (-D): team, lastseq.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set after random(0, greatest(:lastseq - 100, 1))
-- mirrors: src/store/teams.rs last_event_seq (src/service/artifacts.rs tagged_events: the ETag)
select last_event_seq from team_seqs where team_id = :team;
-- mirrors: src/store/events.rs page (src/feed.rs page)
select seq, at, artifact, type, actor, token_id, token_name, data from events where team_id = :team and seq > :after order by seq limit 100;
