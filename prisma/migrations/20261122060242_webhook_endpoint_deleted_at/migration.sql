-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3);
