-- AlterEnum
ALTER TYPE "WebhookDeliveryStatus" ADD VALUE 'canceled';

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "canceled_at" TIMESTAMPTZ(3);
