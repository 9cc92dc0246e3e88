-- CreateEnum
CREATE TYPE "WebhookTestFailureMode" AS ENUM ('status', 'timeout');

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "compressed_retries" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "test_failure_mode" "WebhookTestFailureMode",
ADD COLUMN     "test_failure_remaining" INTEGER,
ADD COLUMN     "test_failure_status" INTEGER;
