-- AlterTable
ALTER TABLE "businesses" ADD COLUMN     "publish_guard_change_percent" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "publish_guard_share_percent" INTEGER NOT NULL DEFAULT 10;

-- CreateTable
CREATE TABLE "publication_records" (
    "id" UUID NOT NULL,
    "book_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "book_version_id" UUID NOT NULL,
    "previous_version_id" UUID,
    "published_by" TEXT,
    "impact" JSON,
    "confirmation" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "publication_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "publication_records_book_id_created_at_idx" ON "publication_records"("book_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "quote_intents_book_id_environment_id_created_at_idx" ON "quote_intents"("book_id", "environment_id", "created_at");

-- The audit trail of publishing is kept as written.
CREATE TRIGGER publication_records_immutable
    BEFORE UPDATE OR DELETE ON "publication_records"
    FOR EACH ROW EXECUTE FUNCTION forbid_mutation();

CREATE TRIGGER publication_records_no_truncate
    BEFORE TRUNCATE ON "publication_records"
    FOR EACH STATEMENT EXECUTE FUNCTION forbid_mutation();
