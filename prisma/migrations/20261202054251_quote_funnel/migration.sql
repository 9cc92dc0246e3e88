-- CreateTable
CREATE TABLE "quote_funnel_daily" (
    "business_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "offering_id" TEXT NOT NULL,
    "outcome" "ReceiptOutcome" NOT NULL,
    "quotes" BIGINT NOT NULL,

    CONSTRAINT "quote_funnel_daily_pkey" PRIMARY KEY ("business_id","environment_id","day","offering_id","outcome")
);

-- CreateTable
CREATE TABLE "quote_prices_daily" (
    "business_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "offering_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "total_minor" BIGINT NOT NULL,
    "quotes" BIGINT NOT NULL,

    CONSTRAINT "quote_prices_daily_pkey" PRIMARY KEY ("business_id","environment_id","day","offering_id","currency","total_minor")
);

-- CreateTable
CREATE TABLE "quote_missing_inputs_daily" (
    "business_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "offering_id" TEXT NOT NULL,
    "book_version_id" UUID NOT NULL,
    "input" TEXT NOT NULL,
    "quotes" BIGINT NOT NULL,

    CONSTRAINT "quote_missing_inputs_daily_pkey" PRIMARY KEY ("business_id","environment_id","day","offering_id","book_version_id","input")
);

-- The quotes made before the funnel's rollup existed, counted once; the minute job counts from here on
-- (lib/quotes/store/funnel-rollup.ts reads each quote the same way).
INSERT INTO "rollup_marks" ("name", "through") VALUES ('quote-funnel', now());
CREATE TEMPORARY TABLE "funnel_backfill" AS
SELECT qi."business_id", qi."environment_id", (qi."created_at" AT TIME ZONE 'UTC')::date AS "day",
       coalesce(qi."inputs"->>'offeringId', '') AS "offering_id", r."outcome",
       coalesce(r."book_version_id", '00000000-0000-0000-0000-000000000000'::uuid) AS "book_version_id",
       r."computation"->>'currency' AS "currency", (r."computation"->>'totalMinor')::bigint AS "total_minor", r."missing_inputs"
FROM "quote_intents" qi JOIN "quote_receipts" r ON r."quote_intent_id" = qi."id"
WHERE qi."business_id" IS NOT NULL AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'quote-funnel');
INSERT INTO "quote_funnel_daily" ("business_id", "environment_id", "day", "offering_id", "outcome", "quotes")
SELECT "business_id", "environment_id", "day", "offering_id", "outcome", count(*) FROM "funnel_backfill" GROUP BY 1, 2, 3, 4, 5;
INSERT INTO "quote_prices_daily" ("business_id", "environment_id", "day", "offering_id", "currency", "total_minor", "quotes")
SELECT "business_id", "environment_id", "day", "offering_id", "currency", "total_minor", count(*) FROM "funnel_backfill"
WHERE "outcome" = 'succeeded' AND "currency" IS NOT NULL AND "total_minor" IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
INSERT INTO "quote_missing_inputs_daily" ("business_id", "environment_id", "day", "offering_id", "book_version_id", "input", "quotes")
SELECT b."business_id", b."environment_id", b."day", b."offering_id", b."book_version_id", m."input", count(*)
FROM "funnel_backfill" b, unnest(b."missing_inputs") AS m("input") WHERE b."outcome" = 'requires_input' GROUP BY 1, 2, 3, 4, 5, 6;
DROP TABLE "funnel_backfill";
