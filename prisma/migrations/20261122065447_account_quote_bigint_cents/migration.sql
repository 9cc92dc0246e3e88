-- AlterTable
ALTER TABLE "account_quotes" ALTER COLUMN "low_cents" SET DATA TYPE BIGINT,
ALTER COLUMN "high_cents" SET DATA TYPE BIGINT;
