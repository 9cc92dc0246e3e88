-- AlterTable
ALTER TABLE "businesses" ADD COLUMN     "next_step_label" TEXT,
ADD COLUMN     "next_step_url" TEXT;
