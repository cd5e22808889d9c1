-- GET /runners/all?status=online: the online runners are one range of the index on contacted_at, and with the
-- id in the index the list collects their ids from it alone (at most 10,001 entries, the ones its capped count
-- already reads: runnerPageSql in lib/runners/queries.ts) instead of walking the primary key and discarding
-- every runner that is not online. The new index has the old one as its prefix, so it replaces it: contacted_at,
-- written at every runner contact, stays in one index. Its price: its entries are unique, so the runners that
-- never contacted (contacted_at NULL) are no longer deduplicated into posting lists, and the capped count of
-- status=never_contacted reads 43 index pages for its 10,001 entries where it read 13.
CREATE INDEX "ci_runners_contacted_at_id_idx" ON "ci_runners"("contacted_at", "id");
DROP INDEX "ci_runners_contacted_at_idx";
