-- Event streams held open, one row each, counted per user on every instance (lib/api/stream-leases.ts).
-- Expand-only: a new table the previous release does not read.
-- CreateTable
CREATE TABLE "event_stream_leases" (
    "id" BIGSERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_stream_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_stream_leases_user_id_expires_at_idx" ON "event_stream_leases"("user_id", "expires_at");

-- CreateIndex
CREATE INDEX "event_stream_leases_expires_at_idx" ON "event_stream_leases"("expires_at");
