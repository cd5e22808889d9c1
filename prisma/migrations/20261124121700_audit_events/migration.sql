-- CreateTable
CREATE TABLE "audit_events" (
    "id" SERIAL NOT NULL,
    "author_id" INTEGER NOT NULL,
    "author_name" TEXT NOT NULL,
    "entity_id" INTEGER NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_path" TEXT NOT NULL,
    "target_id" INTEGER,
    "target_type" TEXT,
    "target_details" TEXT,
    "event_name" TEXT NOT NULL,
    "ip_address" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_entity_type_entity_id_id_idx" ON "audit_events"("entity_type", "entity_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_id_idx" ON "audit_events"("target_type", "target_id", "id");

-- CreateIndex
CREATE INDEX "audit_events_created_at_id_idx" ON "audit_events"("created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_author_id_id_idx" ON "audit_events"("author_id", "id");
