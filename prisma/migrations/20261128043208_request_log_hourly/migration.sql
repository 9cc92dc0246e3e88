-- CreateTable
CREATE TABLE "request_log_hourly" (
    "workspace_id" UUID NOT NULL,
    "business_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "api_key_id" UUID NOT NULL,
    "portal" BOOLEAN NOT NULL,
    "status_class" SMALLINT NOT NULL,
    "requests" BIGINT NOT NULL,

    CONSTRAINT "request_log_hourly_pkey" PRIMARY KEY ("workspace_id","business_id","hour","api_key_id","portal","status_class")
);

-- The rows written before the rollup existed, counted once (the writer keeps it from now on).
INSERT INTO "request_log_hourly" ("workspace_id", "business_id", "hour", "api_key_id", "portal", "status_class", "requests")
SELECT "workspace_id", COALESCE("business_id", '00000000-0000-0000-0000-000000000000'), date_trunc('hour', "created_at", 'UTC'),
       COALESCE("api_key_id", '00000000-0000-0000-0000-000000000000'), "portal", ("status" / 100)::smallint, count(*)
FROM "request_logs" WHERE "workspace_id" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6;
