-- CreateEnum
CREATE TYPE "WebhookAttemptState" AS ENUM ('sending', 'ended', 'lost');

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "state" "WebhookAttemptState" NOT NULL DEFAULT 'ended',
ALTER COLUMN "latency_ms" DROP NOT NULL;

-- Attempts marked started whose outcome was never recorded (their process stopped first) left
-- gaps in the numbering: each becomes a `lost` attempt, dated like the attempt before it (or the
-- delivery's creation). Beyond the last recorded one only where no live claim may still record it.
INSERT INTO "webhook_attempts" ("id", "delivery_id", "number", "started_at", "state", "error")
SELECT gen_random_uuid(), d."id", n,
       COALESCE((SELECT max(a."started_at") FROM "webhook_attempts" a WHERE a."delivery_id" = d."id" AND a."number" < n), d."created_at"),
       'lost', 'no answer recorded: the process stopped'
FROM "webhook_deliveries" d
CROSS JOIN LATERAL generate_series(1, GREATEST(d."attempt_count",
  CASE WHEN d."status" <> 'pending' OR d."leased_until" IS NULL OR d."leased_until" < now() THEN d."attempts_started" ELSE 0 END)) AS n
WHERE GREATEST(d."attempt_count", d."attempts_started") > 0
  AND NOT EXISTS (SELECT 1 FROM "webhook_attempts" a WHERE a."delivery_id" = d."id" AND a."number" = n);
