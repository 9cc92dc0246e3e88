-- AlterTable
ALTER TABLE "experiments" ADD COLUMN     "concluded_at" TIMESTAMPTZ(3),
ADD COLUMN     "concluded_by" TEXT,
ADD COLUMN     "winner_arm" TEXT,
ADD COLUMN     "winner_version_id" UUID;
