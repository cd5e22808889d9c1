-- CreateTable
CREATE TABLE "database_identity" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "instance_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "database_identity_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "database_identity_instance_id_key" ON "database_identity"("instance_id");

-- The identity is made once, with the database (lib/db/identity.ts makes it too if the row is ever missing).
INSERT INTO "database_identity" ("id") VALUES (1) ON CONFLICT ("id") DO NOTHING;
