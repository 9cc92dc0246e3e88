-- AlterTable
ALTER TABLE "account_quotes" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "request" JSONB,
ADD COLUMN     "review_decision" TEXT,
ADD COLUMN     "review_reason" TEXT,
ADD COLUMN     "reviewed_at" TIMESTAMPTZ(3),
ADD COLUMN     "reviewed_by" UUID;

-- AlterTable
ALTER TABLE "businesses" ADD COLUMN     "acceptance_consent" TEXT;

-- CreateTable
CREATE TABLE "quote_acceptances" (
    "id" UUID NOT NULL,
    "quote_intent_id" UUID NOT NULL,
    "receipt_id" UUID NOT NULL,
    "receipt_signature" TEXT,
    "workspace_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "business_id" UUID NOT NULL,
    "total_minor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "contact_name" TEXT,
    "contact_email" TEXT,
    "contact_phone" TEXT,
    "note" TEXT,
    "preferred_date" TEXT,
    "consent_text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'new',
    "status_changed_at" TIMESTAMPTZ(3),
    "status_changed_by" UUID,
    "erased_at" TIMESTAMPTZ(3),
    "erased_by" UUID,
    "request_correlation_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quote_acceptances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "owner_notifications" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "business_id" UUID NOT NULL,
    "subject_id" UUID NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "owner_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "quote_acceptances_quote_intent_id_key" ON "quote_acceptances"("quote_intent_id");

-- CreateIndex
CREATE INDEX "quote_acceptances_business_id_created_at_id_idx" ON "quote_acceptances"("business_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "owner_notifications_sent_at_next_attempt_at_idx" ON "owner_notifications"("sent_at", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "owner_notifications_kind_subject_id_business_id_key" ON "owner_notifications"("kind", "subject_id", "business_id");

-- CreateIndex
CREATE INDEX "account_quotes_project_id_environment_id_state_created_at_i_idx" ON "account_quotes"("project_id", "environment_id", "state", "created_at", "id");
