-- A team's event counter moves out of the team row into a row of its own. Every write of a team
-- takes the counter (its last statement) while nearly every request reads the team row (its
-- policy): on the same row, each write left a dead version behind that reads stepped over until
-- a vacuum came by, so reads slowed down with the writes between vacuums.
create table team_seqs (
    team_id        text primary key references teams (id) on delete cascade,
    -- The last event seq handed out. Taken under this row's lock as a transaction's last
    -- statement, so events commit in seq order (R12).
    last_event_seq bigint not null default 0
);

insert into team_seqs (team_id, last_event_seq) select id, last_event_seq from teams;

alter table teams drop column last_event_seq;

-- Every team has its counter from the start, whoever inserts the team.
create function team_seqs_create() returns trigger language plpgsql as $$
begin
    insert into team_seqs (team_id) values (new.id);
    return null;
end $$;
create trigger teams_seq after insert on teams for each row execute function team_seqs_create();
