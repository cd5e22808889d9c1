-- AlterTable
ALTER TABLE "application_settings" ADD COLUMN     "stale_runner_cleanup_days" INTEGER NOT NULL DEFAULT 90,
ADD COLUMN     "stale_runner_cleanup_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stale_runner_cleanup_owner_group_id" INTEGER,
ADD COLUMN     "stale_runner_cleanup_owner_project_id" INTEGER,
ADD COLUMN     "stale_runner_cleanup_runner_type" "RunnerType";

-- CreateTable
CREATE TABLE "runner_cleanup_runs" (
    "id" SERIAL NOT NULL,
    "trigger" TEXT NOT NULL,
    "scheduled_for" DATE,
    "user_id" INTEGER,
    "dry_run" BOOLEAN NOT NULL,
    "stale_days" INTEGER NOT NULL,
    "runner_type" "RunnerType",
    "owner_group_id" INTEGER,
    "owner_project_id" INTEGER,
    "matched_count" INTEGER NOT NULL DEFAULT 0,
    "deleted_count" INTEGER NOT NULL DEFAULT 0,
    "skipped_count" INTEGER NOT NULL DEFAULT 0,
    "failed_count" INTEGER NOT NULL DEFAULT 0,
    "results" JSONB NOT NULL DEFAULT '[]',
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "runner_cleanup_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "runner_cleanup_runs_scheduled_for_key" ON "runner_cleanup_runs"("scheduled_for");

-- CreateIndex
CREATE INDEX "runner_cleanup_runs_started_at_id_idx" ON "runner_cleanup_runs"("started_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "runner_cleanup_runs" ADD CONSTRAINT "runner_cleanup_runs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
