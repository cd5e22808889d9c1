-- The runner lists' creator filter (Runway extension `creator_username`) reads runners by creator_id.
-- CreateIndex
CREATE INDEX "ci_runners_creator_id_idx" ON "ci_runners"("creator_id");
