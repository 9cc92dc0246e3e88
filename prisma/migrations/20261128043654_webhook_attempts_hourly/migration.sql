-- CreateTable
CREATE TABLE "webhook_attempts_hourly" (
    "environment_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "attempts" BIGINT NOT NULL,

    CONSTRAINT "webhook_attempts_hourly_pkey" PRIMARY KEY ("environment_id","hour","succeeded")
);

-- The attempts recorded before the rollup existed, counted once (their recording keeps it from now on).
INSERT INTO "webhook_attempts_hourly" ("environment_id", "hour", "succeeded", "attempts")
SELECT e."environment_id", date_trunc('hour', a."started_at", 'UTC'), COALESCE(a."response_status" BETWEEN 200 AND 299, false), count(*)
FROM "webhook_attempts" a JOIN "webhook_deliveries" d ON d."id" = a."delivery_id" JOIN "webhook_endpoints" e ON e."id" = d."endpoint_id"
GROUP BY 1, 2, 3;
