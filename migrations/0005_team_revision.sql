-- A team's revision: every change of its policy or its roster increases it. An artifact's status
-- lists the agents eligible to revise it, which depend on both, so its ETag carries this
-- revision beside the artifact's own.
--
-- The team row's lock also orders those changes against the writes that decide on them: an
-- artifact write holds the row `for share` from before it reads the roster and the policy until
-- it commits, and a roster or policy change holds it `for no key update` (the update of this
-- column). So no write decides on a roster that a committed change has already replaced.
alter table teams add column revision bigint not null default 1;
