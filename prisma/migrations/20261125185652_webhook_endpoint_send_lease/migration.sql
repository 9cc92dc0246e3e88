-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "send_lease_owner" UUID,
ADD COLUMN     "send_lease_until" TIMESTAMPTZ(3);
