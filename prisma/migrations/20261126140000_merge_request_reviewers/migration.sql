-- Merge request reviewers (GitLab's merge_request_reviewers): who was asked to review, listed as the MR
-- entity's `reviewers` and set with reviewer_ids on create. Expand-only: a new table.
-- CreateTable
CREATE TABLE "merge_request_reviewers" (
    "id" SERIAL NOT NULL,
    "merge_request_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merge_request_reviewers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "merge_request_reviewers_user_id_idx" ON "merge_request_reviewers"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "merge_request_reviewers_merge_request_id_user_id_key" ON "merge_request_reviewers"("merge_request_id", "user_id");

-- AddForeignKey
ALTER TABLE "merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_merge_request_id_fkey" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
