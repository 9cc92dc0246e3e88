-- A quote's experiment arm and priced total on its intent (copies of its receipt's, written by the
-- same statement): experiment results read the quotes made since the rollup's mark from the
-- intents alone, through the (book, environment, time) index, without parsing a receipt per quote.
ALTER TABLE "quote_intents" ADD COLUMN "experiment_id" UUID, ADD COLUMN "experiment_arm" TEXT,
ADD COLUMN "total_minor" BIGINT, ADD COLUMN "currency" TEXT;

-- Quotes priced in experiments so far (what the results and the rollup read from now on).
UPDATE "quote_intents" qi
   SET "experiment_id" = (r."experiment"->>'experimentId')::uuid, "experiment_arm" = r."experiment"->>'arm',
       "total_minor" = CASE WHEN r."outcome" = 'succeeded' THEN (r."computation"->>'totalMinor')::bigint END,
       "currency" = CASE WHEN r."outcome" = 'succeeded' THEN r."computation"->>'currency' END
  FROM "quote_receipts" r
 WHERE r."quote_intent_id" = qi."id" AND r."experiment" IS NOT NULL AND json_typeof(r."experiment") = 'object';
