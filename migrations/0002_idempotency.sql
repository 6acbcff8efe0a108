-- Idempotency-Key (IETF httpapi draft): the first request with a key claims it at the start of
-- its transaction and stores its response in the same transaction, so an effect and its stored
-- response commit together or not at all. A concurrent repeat blocks on the claim until the
-- first commits (then replays it) or rolls back (then runs itself).
create table idempotency_keys (
    -- The token the key belongs to (the nil uuid for the configured admin token).
    token_id    uuid not null,
    key         text not null,
    -- SHA-256 of method, path and body: the same key with another request is refused.
    fingerprint bytea not null,
    status      integer not null,
    body        bytea not null,
    created_at  timestamptz not null default now(),
    expires_at  timestamptz not null,
    constraint idempotency_keys_pkey primary key (token_id, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);
