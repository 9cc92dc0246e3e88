-- AlterTable
ALTER TABLE "request_logs" ADD COLUMN     "caller" TEXT NOT NULL DEFAULT 'anonymous',
ADD COLUMN     "ip" TEXT,
ADD COLUMN     "portal" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "request_body" TEXT,
ADD COLUMN     "response_body" TEXT,
ADD COLUMN     "user_agent" TEXT;

-- Who called, for rows written before this column: members by session, keys on the account surface.
UPDATE "request_logs" SET "caller" = CASE
    WHEN "principal" = 'session' THEN 'member'
    WHEN "principal" = 'api_key' AND "path" LIKE '/v1/accounts%' THEN 'account_key'
    WHEN "principal" = 'api_key' THEN 'api_key'
    ELSE 'anonymous' END;

-- The minute job forgets bodies after 30 days: it finds the rows that still hold one by this index.
CREATE INDEX "request_logs_bodies_created_at_idx" ON "request_logs" ("created_at")
    WHERE "request_body" IS NOT NULL OR "response_body" IS NOT NULL;
