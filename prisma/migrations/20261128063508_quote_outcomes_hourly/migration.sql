-- CreateTable
CREATE TABLE "quote_outcomes_hourly" (
    "business_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "outcome" "ReceiptOutcome" NOT NULL,
    "quotes" BIGINT NOT NULL,

    CONSTRAINT "quote_outcomes_hourly_pkey" PRIMARY KEY ("business_id","environment_id","hour","outcome")
);

-- CreateTable
CREATE TABLE "rollup_marks" (
    "name" TEXT NOT NULL,
    "through" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rollup_marks_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "quote_outcomes_hourly_hour_idx" ON "quote_outcomes_hourly"("hour");

-- CreateIndex
CREATE INDEX "quote_intents_created_at_idx" ON "quote_intents" USING BRIN ("created_at");

-- The quotes made before the rollup existed, counted once; the minute job counts from here on.
INSERT INTO "rollup_marks" ("name", "through") VALUES ('quote-outcomes', now());
INSERT INTO "quote_outcomes_hourly" ("business_id", "environment_id", "hour", "outcome", "quotes")
SELECT qi."business_id", qi."environment_id", date_trunc('hour', qi."created_at", 'UTC'), r."outcome", count(*)
FROM "quote_intents" qi JOIN "quote_receipts" r ON r."quote_intent_id" = qi."id"
WHERE qi."business_id" IS NOT NULL AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'quote-outcomes')
GROUP BY 1, 2, 3, 4;
