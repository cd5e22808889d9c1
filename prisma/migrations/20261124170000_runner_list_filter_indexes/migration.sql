-- Runner list filters that stay flat as the fleet grows (issue 13): each filter of GET /runners/all gets an
-- index its capped count (Kaminari's 10,001) and its page can run on, instead of walking the fleet.

-- status=stale: "created and last contacted more than 7 days ago" as one ordered value. The two columns are
-- carried so the capped count is an index-only scan (PostgreSQL needs an expression's columns in the index).
CREATE INDEX "ci_runners_stale_since_idx" ON "ci_runners" ((greatest("created_at", coalesce("contacted_at", "created_at")))) INCLUDE ("created_at", "contacted_at");

-- version_prefix: LIKE '16.1.%' and the anchored regex of a full version use a pattern-ordered index (the
-- database's collation may not be C), while (version, runner_id) stays for the fleet overview's grouping.
CREATE INDEX "ci_runner_machines_version_pattern_idx" ON "ci_runner_machines"("version" text_pattern_ops, "runner_id");

-- search (a Runway extension): description ILIKE '%...%' looked up by trigrams (pg_trgm, created by
-- 20261124121600_commit_search_indexes).
CREATE INDEX "ci_runners_description_trgm_idx" ON "ci_runners" USING GIN ("description" gin_trgm_ops);
