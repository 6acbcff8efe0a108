-- Gauges for /metrics that cost nothing to scrape: each team's active lockouts and open
-- escalations, kept up to date by triggers instead of counted by a scan per scrape. The scrape
-- sums one small row per team, and every replica reads the same totals.
create table team_counters (
    team_id          text primary key references teams (id) on delete cascade,
    active_lockouts  bigint not null default 0,
    open_escalations bigint not null default 0
);

-- Adds to a team's counters, creating its row on first use.
create function team_counters_add(team text, lockouts bigint, escalations bigint) returns void
language sql as $$
    insert into team_counters as c (team_id, active_lockouts, open_escalations)
    values (team, lockouts, escalations)
    on conflict (team_id) do update
        set active_lockouts = c.active_lockouts + excluded.active_lockouts,
            open_escalations = c.open_escalations + excluded.open_escalations
$$;

-- Follows one row of `lockouts` (active: `cleared_at is null`) or `escalations` (open:
-- `resolved_at is null`): +1 when a counted row appears, -1 when one stops counting or goes.
-- A -1 is a plain update, never an insert: when a team is deleted its counters row goes with
-- it, and nothing may recreate it.
create function team_counters_follow() returns trigger language plpgsql as $$
declare
    is_lockout  boolean := tg_table_name = 'lockouts';
    old_counts  boolean := false;
    new_counts  boolean := false;
begin
    -- Separate statements: plpgsql parses one only when it runs, and each table has its own column.
    if tg_op <> 'INSERT' then
        if is_lockout then old_counts := old.cleared_at is null; else old_counts := old.resolved_at is null; end if;
    end if;
    if tg_op <> 'DELETE' then
        if is_lockout then new_counts := new.cleared_at is null; else new_counts := new.resolved_at is null; end if;
    end if;
    if tg_op = 'UPDATE' and old_counts = new_counts and old.team_id = new.team_id then
        return null;
    end if;
    if old_counts then
        update team_counters
            set active_lockouts = active_lockouts - is_lockout::int,
                open_escalations = open_escalations - (not is_lockout)::int
            where team_id = old.team_id;
    end if;
    if new_counts then
        perform team_counters_add(new.team_id, is_lockout::int, (not is_lockout)::int);
    end if;
    return null;
end $$;

-- Deferred to commit: the counters row of a team is then locked only while the transaction
-- commits, after its event has taken the team row (the last statement of every write), so the
-- counters add no lock wait to the team's writes and always take their locks in the same order.
-- A rolled-back write never touches them.
create constraint trigger lockouts_team_counters
    after insert or update of cleared_at, team_id or delete on lockouts
    deferrable initially deferred
    for each row execute function team_counters_follow();
create constraint trigger escalations_team_counters
    after insert or update of resolved_at, team_id or delete on escalations
    deferrable initially deferred
    for each row execute function team_counters_follow();

-- The counts so far. After the triggers: creating them waited for every write in flight on these
-- tables and blocks new ones until this migration commits, so this read misses nothing.
insert into team_counters (team_id, active_lockouts, open_escalations)
select t.id,
       (select count(*) from lockouts l where l.team_id = t.id and l.cleared_at is null),
       (select count(*) from escalations e where e.team_id = t.id and e.resolved_at is null)
from teams t;
