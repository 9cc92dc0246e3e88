-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "forward_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "forwarded_at" TIMESTAMPTZ(3);
