-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "attempts_started" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "key_checks" (
    "name" TEXT NOT NULL,
    "check_value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_checks_pkey" PRIMARY KEY ("name")
);

-- Deliveries so far: every recorded attempt was started.
UPDATE "webhook_deliveries" SET "attempts_started" = "attempt_count" WHERE "attempt_count" > 0;
