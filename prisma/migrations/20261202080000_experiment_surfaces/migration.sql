-- Experiments say which surfaces take part. Those created before could cover the hosted page and
-- API-key quotes only, and keep exactly that; new ones default to every customer-facing surface.
ALTER TABLE "experiments" ADD COLUMN "surfaces" TEXT[] NOT NULL DEFAULT ARRAY['hosted', 'api']::TEXT[];
ALTER TABLE "experiments" ALTER COLUMN "surfaces" SET DEFAULT ARRAY['hosted', 'api', 'account']::TEXT[];

-- An account-surface quote priced in an experiment records its arm, as a receipt does (signed
-- in the quote it answered; this column is what the rollup reads).
ALTER TABLE "account_quotes" ADD COLUMN "experiment" JSONB;

-- Commitments (account surface) per arm: committed revenue, the third primary metric.
ALTER TABLE "experiment_arm_daily" ADD COLUMN "commitments" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "committed_revenue_sum" DECIMAL NOT NULL DEFAULT 0,
ADD COLUMN "committed_revenue_sum_of_squares" DECIMAL NOT NULL DEFAULT 0;

-- No account quote took part before this migration: the marks start now.
INSERT INTO "rollup_marks" ("name", "through") VALUES ('experiment-account-quotes', now()), ('experiment-commitments', now());

-- The rollup finds account quotes and commitments by time, as it does receipts.
CREATE INDEX "account_quotes_created_at_idx" ON "account_quotes" USING BRIN ("created_at");
CREATE INDEX "commitments_confirmed_at_idx" ON "commitments" USING BRIN ("confirmed_at");
