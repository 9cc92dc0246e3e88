-- An acceptance of a quote priced in an experiment names its experiment and arm (copied from the
-- receipt, which never changes), so that experiment results count acceptances and won leads from
-- this table alone, without parsing a receipt per lead.
ALTER TABLE "quote_acceptances" ADD COLUMN "experiment_id" UUID, ADD COLUMN "experiment_arm" TEXT;

UPDATE "quote_acceptances" qa
   SET "experiment_id" = (r."experiment"->>'experimentId')::uuid, "experiment_arm" = r."experiment"->>'arm'
  FROM "quote_receipts" r
 WHERE r."quote_intent_id" = qa."quote_intent_id" AND r."experiment" IS NOT NULL AND json_typeof(r."experiment") = 'object';

-- Won leads per arm, read at results time (a status moves after the fact).
CREATE INDEX "quote_acceptances_experiment_won_idx" ON "quote_acceptances" ("experiment_id", "experiment_arm", "currency") WHERE "status" = 'won' AND "experiment_id" IS NOT NULL;
