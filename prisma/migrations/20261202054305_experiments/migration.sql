-- CreateEnum
CREATE TYPE "ExperimentState" AS ENUM ('draft', 'running', 'stopped', 'concluded');

-- CreateEnum
CREATE TYPE "ExperimentMetric" AS ENUM ('revenue_per_quote', 'acceptance_rate', 'committed_revenue');

-- AlterTable
ALTER TABLE "publications" ADD COLUMN     "experiment" JSONB,
ADD COLUMN     "experiment_id" UUID;

-- AlterTable
ALTER TABLE "quote_receipts" ADD COLUMN     "experiment" JSON;

-- CreateTable
CREATE TABLE "experiments" (
    "id" UUID NOT NULL,
    "book_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "state" "ExperimentState" NOT NULL DEFAULT 'draft',
    "salt" TEXT NOT NULL,
    "primary_metric" "ExperimentMetric" NOT NULL DEFAULT 'revenue_per_quote',
    "weight_unit" TEXT NOT NULL,
    "control_weight" INTEGER NOT NULL,
    "variants" JSONB NOT NULL,
    "offering_ids" TEXT[],
    "control_version_id" UUID,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "experiments_book_id_environment_id_created_at_idx" ON "experiments"("book_id", "environment_id", "created_at");

-- AddForeignKey
ALTER TABLE "publications" ADD CONSTRAINT "publications_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_book_id_fkey" FOREIGN KEY ("book_id") REFERENCES "books"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- At most one running experiment per (book, environment).
CREATE UNIQUE INDEX experiments_one_running ON experiments (book_id, environment_id) WHERE state = 'running';

ALTER TABLE experiments ADD CONSTRAINT experiments_weight_unit_check CHECK (weight_unit IN ('percent', 'basis_points'));
