-- The request log's bodies in a table of their own, partitioned by UTC day like the rows (issue
-- 31): the minute job drops a day's bodies after 30 days instead of rewriting every row with
-- an UPDATE (dead tuples, bloat). Partitions `bYYYYMMDD` in request_log_partitions.
CREATE TABLE "request_log_bodies" (
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "request_body" TEXT,
    "response_body" TEXT,

    CONSTRAINT "request_log_bodies_pkey" PRIMARY KEY ("request_id","created_at")
) PARTITION BY RANGE ("created_at");

CREATE TABLE "request_log_partitions"."request_log_bodies_default" PARTITION OF "request_log_bodies" DEFAULT;

DO $$
DECLARE
  day date := COALESCE((SELECT min(created_at AT TIME ZONE 'UTC')::date FROM request_logs WHERE request_body IS NOT NULL OR response_body IS NOT NULL),
                       (now() AT TIME ZONE 'UTC')::date);
  last date := (now() AT TIME ZONE 'UTC')::date + 7;
BEGIN
  WHILE day <= last LOOP
    EXECUTE format('CREATE TABLE request_log_partitions.%I PARTITION OF request_log_bodies FOR VALUES FROM (%L) TO (%L)',
      'b' || to_char(day, 'YYYYMMDD'), (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
    day := day + 1;
  END LOOP;
END $$;

INSERT INTO "request_log_bodies" ("request_id", "created_at", "request_body", "response_body")
SELECT "request_id", "created_at", "request_body", "response_body" FROM "request_logs"
WHERE "request_body" IS NOT NULL OR "response_body" IS NOT NULL;

DROP INDEX "request_logs_bodies_created_at_idx";
ALTER TABLE "request_logs" DROP COLUMN "request_body", DROP COLUMN "response_body";
