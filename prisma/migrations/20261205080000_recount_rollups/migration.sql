-- Until 5 December (commit d1357c4) a rollup's mark was rounded to the millisecond as it was
-- stored. Rounded down, it made the next run count the rows of that millisecond a second time, so
-- the rollups may hold double counts. No record says which, so every rollup is counted again
-- from the rows themselves, up to its mark, as the minute jobs count (lib/quotes/store/rollup.ts,
-- lib/quotes/store/funnel-rollup.ts, lib/experiments/store/arm-rollup.ts as of this migration).
-- Quote, acceptance and commitment rows are never deleted, so the recount has every row the jobs
-- counted. The jobs' reads of what came after the marks are unchanged.

-- The marks, locked: a minute job of an instance still running waits here, then goes on from its
-- (unmoved) mark. Readers see the old counts until this commits (DELETE, not TRUNCATE: no lock on reads).
SELECT 1 FROM "rollup_marks" ORDER BY "name" FOR UPDATE;

-- Quotes by outcome, per hour (the Overview).
DELETE FROM "quote_outcomes_hourly";
INSERT INTO "quote_outcomes_hourly" ("business_id", "environment_id", "hour", "outcome", "quotes")
SELECT qi."business_id", qi."environment_id", date_trunc('hour', qi."created_at", 'UTC'), r."outcome", count(*)
  FROM "quote_intents" qi JOIN "quote_receipts" r ON r."quote_intent_id" = qi."id"
 WHERE qi."business_id" IS NOT NULL AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'quote-outcomes')
 GROUP BY 1, 2, 3, 4;

-- The funnel's three daily tables.
DELETE FROM "quote_funnel_daily";
DELETE FROM "quote_prices_daily";
DELETE FROM "quote_missing_inputs_daily";
WITH "quotes" AS (
  SELECT qi."business_id", qi."environment_id", (qi."created_at" AT TIME ZONE 'UTC')::date AS "day",
         coalesce(qi."inputs"->>'offeringId', '') AS "offering_id", r."outcome",
         coalesce(r."book_version_id", '00000000-0000-0000-0000-000000000000'::uuid) AS "book_version_id",
         coalesce(qi."currency", r."computation"->>'currency') AS "currency",
         coalesce(qi."total_minor", (r."computation"->>'totalMinor')::bigint) AS "total_minor", r."missing_inputs"
    FROM "quote_intents" qi JOIN "quote_receipts" r ON r."quote_intent_id" = qi."id"
   WHERE qi."business_id" IS NOT NULL AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'quote-funnel')
), "outcomes" AS (
  INSERT INTO "quote_funnel_daily" ("business_id", "environment_id", "day", "offering_id", "outcome", "quotes")
  SELECT "business_id", "environment_id", "day", "offering_id", "outcome", count(*) FROM "quotes" GROUP BY 1, 2, 3, 4, 5
), "prices" AS (
  INSERT INTO "quote_prices_daily" ("business_id", "environment_id", "day", "offering_id", "currency", "total_minor", "quotes")
  SELECT "business_id", "environment_id", "day", "offering_id", "currency", "total_minor", count(*) FROM "quotes"
   WHERE "outcome" = 'succeeded' AND "currency" IS NOT NULL AND "total_minor" IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6
)
INSERT INTO "quote_missing_inputs_daily" ("business_id", "environment_id", "day", "offering_id", "book_version_id", "input", "quotes")
SELECT q."business_id", q."environment_id", q."day", q."offering_id", q."book_version_id", m."input", count(*)
  FROM "quotes" q, unnest(q."missing_inputs") AS m("input") WHERE q."outcome" = 'requires_input'
 GROUP BY 1, 2, 3, 4, 5, 6;

-- Experiments' arms per day: priced quotes (receipts' intents and the account surface's quotes,
-- each by its own mark), acceptances and commitments.
DELETE FROM "experiment_arm_daily";
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "quotes", "quoted_price_sum")
SELECT qi."experiment_id", qi."experiment_arm", (qi."created_at" AT TIME ZONE 'UTC')::date, qi."currency", count(*), sum(qi."total_minor"::numeric)
  FROM "quote_intents" qi
 WHERE qi."experiment_id" IS NOT NULL AND qi."total_minor" IS NOT NULL AND qi."currency" IS NOT NULL
   AND qi."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-quotes')
 GROUP BY 1, 2, 3, 4;
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "quotes", "quoted_price_sum")
SELECT (aq."experiment"->>'experiment_id')::uuid, aq."experiment"->>'arm', (aq."created_at" AT TIME ZONE 'UTC')::date,
       aq."response"->>'currency', count(*), sum(aq."low_cents"::numeric)
  FROM "account_quotes" aq
 WHERE aq."experiment" IS NOT NULL AND aq."response"->>'decision' = 'priced' AND aq."low_cents" IS NOT NULL AND aq."response"->>'currency' IS NOT NULL
   AND aq."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-account-quotes')
 GROUP BY 1, 2, 3, 4
ON CONFLICT ("experiment_id", "arm", "day", "currency") DO UPDATE
  SET "quotes" = "experiment_arm_daily"."quotes" + EXCLUDED."quotes",
      "quoted_price_sum" = "experiment_arm_daily"."quoted_price_sum" + EXCLUDED."quoted_price_sum";
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "acceptances", "accepted_revenue_sum", "accepted_revenue_sum_of_squares")
SELECT qa."experiment_id", qa."experiment_arm", (qa."created_at" AT TIME ZONE 'UTC')::date, qa."currency",
       count(*), sum(qa."total_minor"::numeric), sum(qa."total_minor"::numeric * qa."total_minor"::numeric)
  FROM "quote_acceptances" qa
 WHERE qa."experiment_id" IS NOT NULL
   AND qa."created_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-acceptances')
 GROUP BY 1, 2, 3, 4
ON CONFLICT ("experiment_id", "arm", "day", "currency") DO UPDATE
  SET "acceptances" = EXCLUDED."acceptances", "accepted_revenue_sum" = EXCLUDED."accepted_revenue_sum",
      "accepted_revenue_sum_of_squares" = EXCLUDED."accepted_revenue_sum_of_squares";
INSERT INTO "experiment_arm_daily" ("experiment_id", "arm", "day", "currency", "commitments", "committed_revenue_sum", "committed_revenue_sum_of_squares")
SELECT (aq."experiment"->>'experiment_id')::uuid, aq."experiment"->>'arm', (c."confirmed_at" AT TIME ZONE 'UTC')::date,
       aq."response"->>'currency', count(*), sum(aq."low_cents"::numeric), sum(aq."low_cents"::numeric * aq."low_cents"::numeric)
  FROM "commitments" c JOIN "account_quotes" aq ON aq."id" = c."account_quote_id"
 WHERE aq."experiment" IS NOT NULL AND aq."response"->>'decision' = 'priced' AND aq."low_cents" IS NOT NULL AND aq."response"->>'currency' IS NOT NULL
   AND c."confirmed_at" < (SELECT "through" FROM "rollup_marks" WHERE "name" = 'experiment-commitments')
 GROUP BY 1, 2, 3, 4
ON CONFLICT ("experiment_id", "arm", "day", "currency") DO UPDATE
  SET "commitments" = EXCLUDED."commitments", "committed_revenue_sum" = EXCLUDED."committed_revenue_sum",
      "committed_revenue_sum_of_squares" = EXCLUDED."committed_revenue_sum_of_squares";
