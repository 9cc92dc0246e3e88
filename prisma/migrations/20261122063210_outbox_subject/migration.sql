-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "subject_id" UUID;

-- CreateIndex
CREATE INDEX "outbox_events_subject_id_idx" ON "outbox_events"("subject_id");
