-- Failed sign-ins in their current window (lib/auth/lockout.ts): one row per login (a digest of it) and
-- client address, and one per account (an empty client). A row whose window and lock have both ended means
-- nothing any more: the background worker deletes those.
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "client" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key","client")
);

CREATE INDEX "sign_in_failures_started_at_idx" ON "sign_in_failures"("started_at");
