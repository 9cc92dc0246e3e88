-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "leased_until" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_replay_of_id_idx" ON "webhook_deliveries"("replay_of_id");
