-- R16: the names by which a runtime (a subagent's name), a commit trailer or an e-mail address
-- refers to an agent. An alias names one agent of its team: the key makes it unique in the team,
-- and the service refuses one that is another agent's id.
create table agent_aliases (
    team_id  text not null,
    alias    text not null
        constraint agent_aliases_alias_format check (length(alias) between 1 and 200 and alias !~ '[[:cntrl:]]'),
    agent_id text not null,
    constraint agent_aliases_pkey primary key (team_id, alias),
    constraint agent_aliases_agent_fkey foreign key (team_id, agent_id) references agents (team_id, id) on delete cascade
);
create index agent_aliases_agent on agent_aliases (team_id, agent_id);
