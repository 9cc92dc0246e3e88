-- The overview's and the inbox's pipeline counts (capped at 1,000, lib/overview/store.ts) read
-- only the business's own rows: its priced quotes by when their price runs out, its leads still new.
CREATE INDEX "quote_intents_business_expiring_idx" ON "quote_intents" ("business_id", "environment_id", "expires_at") WHERE "status" = 'succeeded';
CREATE INDEX "quote_acceptances_business_new_idx" ON "quote_acceptances" ("business_id") WHERE "status" = 'new';
