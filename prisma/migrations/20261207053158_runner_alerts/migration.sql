-- Fleet alerts (Runway extension, lib/fleet-alerts): the rules admins set, their alerts (history), the webhook
-- deliveries with their retries, and the row that claims each minute's check cycle for one instance, and two
-- indexes on ci_builds for the queue-wait rule (jobs started lately, jobs still pending).
-- Expand-only: new tables and indexes, nothing backfilled.
-- CreateTable
CREATE TABLE "runner_alert_rules" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "kind" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION,
    "window_minutes" INTEGER,
    "runner_type" "RunnerType",
    "tag" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "webhook_url" TEXT,
    "webhook_secret_encrypted" TEXT,
    "state" TEXT NOT NULL DEFAULT 'unknown',
    "last_value" DOUBLE PRECISION,
    "last_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runner_alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runner_alerts" (
    "id" SERIAL NOT NULL,
    "rule_id" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'firing',
    "value" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION,
    "message" TEXT NOT NULL,
    "fired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "runner_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runner_alert_deliveries" (
    "id" SERIAL NOT NULL,
    "rule_id" INTEGER NOT NULL,
    "alert_id" INTEGER,
    "event" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_status" INTEGER,
    "error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "runner_alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runner_alert_cycles" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "started_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "runner_alert_cycles_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "runner_alerts_state_id_idx" ON "runner_alerts"("state", "id");

-- CreateIndex
CREATE INDEX "runner_alerts_rule_id_state_idx" ON "runner_alerts"("rule_id", "state");

-- CreateIndex
CREATE INDEX "runner_alert_deliveries_rule_id_id_idx" ON "runner_alert_deliveries"("rule_id", "id");

-- CreateIndex
CREATE INDEX "runner_alert_deliveries_alert_id_idx" ON "runner_alert_deliveries"("alert_id");

-- CreateIndex
CREATE INDEX "runner_alert_deliveries_status_next_attempt_at_idx" ON "runner_alert_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "ci_builds_started_at_idx" ON "ci_builds"("started_at");

-- CreateIndex
CREATE INDEX "ci_builds_status_created_at_idx" ON "ci_builds"("status", "created_at");

-- AddForeignKey
ALTER TABLE "runner_alerts" ADD CONSTRAINT "runner_alerts_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "runner_alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runner_alert_deliveries" ADD CONSTRAINT "runner_alert_deliveries_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "runner_alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runner_alert_deliveries" ADD CONSTRAINT "runner_alert_deliveries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "runner_alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
