-- CreateTable
CREATE TABLE "experiment_arm_daily" (
    "experiment_id" UUID NOT NULL,
    "arm" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "currency" TEXT NOT NULL,
    "quotes" BIGINT NOT NULL DEFAULT 0,
    "quoted_price_sum" DECIMAL NOT NULL DEFAULT 0,
    "acceptances" BIGINT NOT NULL DEFAULT 0,
    "accepted_revenue_sum" DECIMAL NOT NULL DEFAULT 0,
    "accepted_revenue_sum_of_squares" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "experiment_arm_daily_pkey" PRIMARY KEY ("experiment_id","arm","day","currency")
);

-- CreateIndex
CREATE INDEX "quote_acceptances_created_at_idx" ON "quote_acceptances" USING BRIN ("created_at");

-- Won leads are a lead's current status (it moves after the fact, so no mark can count it once):
-- experiment results read them at results time, the experiment's environment from its start.
CREATE INDEX "quote_acceptances_won_idx" ON "quote_acceptances" ("environment_id", "created_at") WHERE "status" = 'won';

-- The quotes and acceptances made before the rollup existed, counted once; the minute job counts
-- from here on (lib/quotes/store/experiment-rollup.ts reads each the same way).
INSERT INTO "rollup_marks" ("name", "through") VALUES ('experiment-quotes', now()), ('experiment-acceptances', now());
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "quotes", "quoted_price_sum")
SELECT (r."experiment"->>'experimentId')::uuid, r."experiment"->>'arm', (qi."created_at" AT TIME ZONE 'UTC')::date,
       r."computation"->>'currency', count(*), sum((r."computation"->>'totalMinor')::numeric)
FROM "quote_intents" qi JOIN "quote_receipts" r ON r."quote_intent_id" = qi."id"
WHERE r."experiment" IS NOT NULL AND json_typeof(r."experiment") = 'object' AND r."outcome" = 'succeeded'
  AND r."computation"->>'currency' IS NOT NULL AND r."computation"->>'totalMinor' IS NOT NULL
  AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-quotes')
GROUP BY 1, 2, 3, 4;
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "acceptances", "accepted_revenue_sum", "accepted_revenue_sum_of_squares")
SELECT (r."experiment"->>'experimentId')::uuid, r."experiment"->>'arm', (qa."created_at" AT TIME ZONE 'UTC')::date, qa."currency",
       count(*), sum(qa."total_minor"::numeric), sum(qa."total_minor"::numeric * qa."total_minor"::numeric)
FROM "quote_acceptances" qa JOIN "quote_receipts" r ON r."quote_intent_id" = qa."quote_intent_id"
WHERE r."experiment" IS NOT NULL AND json_typeof(r."experiment") = 'object'
  AND qa."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-acceptances')
GROUP BY 1, 2, 3, 4
ON CONFLICT ("experiment_id", "arm", "day", "currency") DO UPDATE SET "acceptances" = EXCLUDED."acceptances",
  "accepted_revenue_sum" = EXCLUDED."accepted_revenue_sum", "accepted_revenue_sum_of_squares" = EXCLUDED."accepted_revenue_sum_of_squares";
