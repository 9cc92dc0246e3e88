-- CreateTable
CREATE TABLE "idempotent_requests" (
    "id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "response_status" INTEGER,
    "response" JSONB,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "idempotent_requests_created_at_idx" ON "idempotent_requests"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotent_requests_scope_key_key" ON "idempotent_requests"("scope", "key");
