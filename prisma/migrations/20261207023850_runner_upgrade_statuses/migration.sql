-- Runner upgrade statuses (GitLab's RunnerUpgradeCheck, lib/runners/upgrade-status.ts): the versions runner
-- managers report, each with its status (GitLab's ci_runner_versions), the gitlab-runner release list they are
-- computed from (one row), and the settings of the daily refresh of that list (GitLab's
-- update_runner_versions_enabled and public_runner_releases_url, off by default here).
-- Expand-only: new tables, columns with defaults, and triggers that only add rows to a new table.
-- CreateEnum
CREATE TYPE "RunnerUpgradeStatus" AS ENUM ('invalid', 'not_available', 'available', 'recommended');

-- AlterTable
ALTER TABLE "application_settings" ADD COLUMN     "public_runner_releases_url" TEXT NOT NULL DEFAULT 'https://gitlab.com/api/v4/projects/gitlab-org%2Fgitlab-runner/releases?per_page=100',
ADD COLUMN     "update_runner_versions_enabled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ci_runner_versions" (
    "version" TEXT NOT NULL,
    "status" "RunnerUpgradeStatus",
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runner_versions_pkey" PRIMARY KEY ("version")
);

-- CreateTable
CREATE TABLE "ci_runner_releases" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "versions" TEXT[],
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "computed_for" TEXT,
    "refresh_attempted_at" TIMESTAMPTZ(3),
    "refresh_error" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ci_runner_releases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ci_runner_versions_status_idx" ON "ci_runner_versions"("status");

-- Every version a manager reports gets its row (status null: not processed yet), whoever writes the manager
-- (the runner API, seeds, restores): lib/runners/releases.ts computes the status soon after. Longer
-- versions than a b-tree entry holds are left out: they do not parse (GitLab reads 128 characters at most),
-- so the manager's own status says invalid without a row. A row whose version no manager reports any more
-- is deleted by the next full recomputation, as GitLab's ReconcileExistingRunnerVersionsService does.
-- The migration runner splits scripts at every semicolon, so the body writes each of its semicolons as \073.
CREATE FUNCTION note_runner_version() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO ci_runner_versions (version) VALUES (NEW.version) ON CONFLICT (version) DO NOTHING\073
  RETURN NULL\073
END
';

CREATE TRIGGER ci_runner_machines_note_version_insert
  AFTER INSERT ON ci_runner_machines
  FOR EACH ROW WHEN (NEW.version IS NOT NULL AND octet_length(NEW.version) <= 2048)
  EXECUTE FUNCTION note_runner_version();

CREATE TRIGGER ci_runner_machines_note_version_update
  AFTER UPDATE OF version ON ci_runner_machines
  FOR EACH ROW WHEN (NEW.version IS NOT NULL AND NEW.version IS DISTINCT FROM OLD.version AND octet_length(NEW.version) <= 2048)
  EXECUTE FUNCTION note_runner_version();

-- The versions already reported (index only on ci_runner_machines (version, runner_id)).
INSERT INTO ci_runner_versions (version)
SELECT DISTINCT version FROM ci_runner_machines WHERE version IS NOT NULL AND octet_length(version) <= 2048
ON CONFLICT (version) DO NOTHING;
