-- AlterTable
ALTER TABLE "quote_receipts" ADD COLUMN     "signature" TEXT,
ADD COLUMN     "signature_kid" TEXT;

-- CreateTable
CREATE TABLE "receipt_signing_keys" (
    "kid" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "private_key_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "receipt_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- One key signs at a time: rotation retires the current key and inserts its successor in one
-- transaction, and two processes making the first key at once insert one.
CREATE UNIQUE INDEX receipt_signing_keys_one_current ON receipt_signing_keys ((true)) WHERE retired_at IS NULL;
