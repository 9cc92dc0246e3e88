-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "receipt_id" UUID;
