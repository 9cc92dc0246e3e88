-- AlterTable
ALTER TABLE "experiments" ADD COLUMN     "max_price_difference_percent" INTEGER NOT NULL DEFAULT 20,
ADD COLUMN     "pause_when_acceptance_drops_points" DOUBLE PRECISION;
