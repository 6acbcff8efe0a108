-- events_poll: GET /v1/teams/{team}/events?after=R&limit=100 (src/http/events.rs events,
-- wait=0). One autocommit statement: the team's last seq (the ETag, and the proof that the
-- team exists) and the page, from one snapshot. Variables (-D): team, lastseq.
-- The token lookup is not here: the service keeps a token that authenticated for
-- REVIEWLOCK_TOKEN_CACHE_TTL (1 s), so under load it looks one up about once a second.
\set after random(0, greatest(:lastseq - 100, 1))
-- mirrors: src/store/events.rs tagged_page (src/app tagged_events)
select s.last_event_seq, e.seq, e.at, e.artifact, e.type, e.actor, e.token_id, e.token_name, e.data from team_seqs s left join lateral (select * from events e where e.team_id = s.team_id and e.seq > :after order by e.seq limit 100) e on true where s.team_id = :team order by e.seq;
