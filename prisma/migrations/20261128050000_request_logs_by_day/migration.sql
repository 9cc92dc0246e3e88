-- The request log, partitioned by day (issue 31): a day's rows are one table, so retention drops
-- whole days instead of deleting rows, and a search of a time window reads only its days. The
-- partitions live in their own schema (request_log_partitions), made ahead by the minute job
-- `request-log-partitions` (lib/requestlog/partitions.ts); a default partition catches a row no
-- day partition holds, and the job raises an alarm when it does.
-- A partitioned table's keys include its partition key: the row's id and the request id are
-- unique together with created_at (ids come from one sequence; request ids are UUIDs).

ALTER TABLE "request_logs" RENAME TO "request_logs_unpartitioned";
ALTER INDEX "request_logs_pkey" RENAME TO "request_logs_unpartitioned_pkey";
ALTER INDEX "request_logs_request_id_key" RENAME TO "request_logs_unpartitioned_request_id_key";
ALTER INDEX "request_logs_workspace_id_created_at_id_idx" RENAME TO "request_logs_unpartitioned_ws_idx";
ALTER INDEX "request_logs_project_id_environment_id_created_at_id_idx" RENAME TO "request_logs_unpartitioned_env_idx";
ALTER INDEX "request_logs_errors_idx" RENAME TO "request_logs_unpartitioned_errors_idx";
ALTER INDEX "request_logs_bodies_created_at_idx" RENAME TO "request_logs_unpartitioned_bodies_idx";
ALTER SEQUENCE "request_logs_id_seq" OWNED BY NONE;

CREATE TABLE "request_logs" (LIKE "request_logs_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE ("created_at");
ALTER SEQUENCE "request_logs_id_seq" OWNED BY "request_logs"."id";
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_pkey" PRIMARY KEY ("id", "created_at");
CREATE UNIQUE INDEX "request_logs_request_id_created_at_key" ON "request_logs"("request_id", "created_at");
CREATE INDEX "request_logs_workspace_id_created_at_id_idx" ON "request_logs"("workspace_id", "created_at" DESC, "id" DESC);
CREATE INDEX "request_logs_project_id_environment_id_created_at_id_idx" ON "request_logs"("project_id", "environment_id", "created_at" DESC, "id" DESC);
CREATE INDEX request_logs_errors_idx ON request_logs (workspace_id, created_at DESC, id DESC) WHERE status >= 400;
CREATE INDEX "request_logs_bodies_created_at_idx" ON "request_logs" ("created_at") WHERE request_body IS NOT NULL OR response_body IS NOT NULL;

CREATE SCHEMA IF NOT EXISTS "request_log_partitions";
CREATE TABLE "request_log_partitions"."request_logs_default" PARTITION OF "request_logs" DEFAULT;

-- A partition per UTC day from the oldest row to a week ahead, then the rows moved in.
DO $$
DECLARE
  day date := COALESCE((SELECT min(created_at AT TIME ZONE 'UTC')::date FROM request_logs_unpartitioned), (now() AT TIME ZONE 'UTC')::date);
  last date := (now() AT TIME ZONE 'UTC')::date + 7;
BEGIN
  WHILE day <= last LOOP
    EXECUTE format('CREATE TABLE request_log_partitions.%I PARTITION OF request_logs FOR VALUES FROM (%L) TO (%L)',
      'd' || to_char(day, 'YYYYMMDD'), (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
    day := day + 1;
  END LOOP;
END $$;

INSERT INTO "request_logs" SELECT * FROM "request_logs_unpartitioned";
DROP TABLE "request_logs_unpartitioned";
