-- AlterTable
ALTER TABLE "quote_receipts" ADD COLUMN     "format_version" INTEGER NOT NULL DEFAULT 1;
