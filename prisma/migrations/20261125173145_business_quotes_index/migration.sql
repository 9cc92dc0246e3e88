-- CreateIndex
CREATE INDEX "quote_intents_business_id_created_at_id_idx" ON "quote_intents"("business_id", "created_at" DESC, "id" DESC);
