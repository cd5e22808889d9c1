-- The previously merged commits dialog's search at 100,000 commits: trigram indexes for ILIKE '%...%' on
-- messages and authors, newest-first order as one index, and the default branch's stored membership.
-- pg_trgm ships with PostgreSQL (Debian's postgresql package included) and PGlite loads it (lib/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

DROP INDEX "commits_project_id_committed_date_idx";
CREATE INDEX "commits_project_id_committed_date_id_idx" ON "commits"("project_id", "committed_date" DESC, "id" DESC);
CREATE INDEX "commits_message_trgm_idx" ON "commits" USING GIN ("message" gin_trgm_ops);
CREATE INDEX "commits_author_name_trgm_idx" ON "commits" USING GIN ("author_name" gin_trgm_ops);
CREATE INDEX "commits_author_email_trgm_idx" ON "commits" USING GIN ("author_email" gin_trgm_ops);

ALTER TABLE "branches" ADD COLUMN "membership_sha" TEXT;

CREATE TABLE "branch_commits" (
    "branch_id" INTEGER NOT NULL,
    "commit_id" INTEGER NOT NULL,
    "committed_date" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "branch_commits_pkey" PRIMARY KEY ("branch_id","commit_id")
);
CREATE INDEX "branch_commits_branch_id_committed_date_commit_id_idx" ON "branch_commits"("branch_id", "committed_date" DESC, "commit_id" DESC);
ALTER TABLE "branch_commits" ADD CONSTRAINT "branch_commits_branch_id_fkey" FOREIGN KEY ("branch_id") REFERENCES "branches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
