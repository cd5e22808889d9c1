-- DropIndex
DROP INDEX "ci_runner_machines_version_idx";

-- CreateTable
CREATE TABLE "ci_runner_fleet_snapshots" (
    "day" DATE NOT NULL,
    "online" INTEGER NOT NULL,
    "offline" INTEGER NOT NULL,
    "stale" INTEGER NOT NULL,
    "never_contacted" INTEGER NOT NULL,
    "paused" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runner_fleet_snapshots_pkey" PRIMARY KEY ("day")
);

-- CreateIndex
CREATE INDEX "ci_builds_created_at_runner_id_queued_duration_idx" ON "ci_builds"("created_at", "runner_id", "queued_duration");

-- CreateIndex
CREATE INDEX "ci_builds_runner_id_created_at_queued_duration_idx" ON "ci_builds"("runner_id", "created_at", "queued_duration");

-- CreateIndex
CREATE INDEX "ci_runner_machines_version_runner_id_idx" ON "ci_runner_machines"("version", "runner_id");
