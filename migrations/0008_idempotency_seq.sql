-- The team's event seq a write committed (R18), stored with its response so a replay answers
-- the same `Reviewlock-Seq`; null for a server-wide write (no team's log records it) and for
-- responses stored before the header existed.
alter table idempotency_keys add column seq bigint;
