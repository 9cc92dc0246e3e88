-- GET /v1/quotes: an API key lists its environment's quotes, newest first, keyset-paginated by (created_at, id).
-- CreateIndex
CREATE INDEX "quote_intents_environment_id_created_at_id_idx" ON "quote_intents"("environment_id", "created_at" DESC, "id" DESC);
