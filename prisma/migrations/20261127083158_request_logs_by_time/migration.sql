-- The request log is read newest first by the time of each request, ties by id (see
-- schema.prisma); the time window needs no index of its own any more.

-- DropIndex
DROP INDEX "request_logs_created_at_idx";

-- DropIndex
DROP INDEX "request_logs_project_id_environment_id_id_idx";

-- DropIndex
DROP INDEX "request_logs_workspace_id_id_idx";

-- CreateIndex
CREATE INDEX "request_logs_workspace_id_created_at_id_idx" ON "request_logs"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_project_id_environment_id_created_at_id_idx" ON "request_logs"("project_id", "environment_id", "created_at" DESC, "id" DESC);

-- Hand-written: error searches (status classes 4xx/5xx) in the same order as every other search.
DROP INDEX request_logs_errors_idx;
CREATE INDEX request_logs_errors_idx ON request_logs (workspace_id, created_at DESC, id DESC) WHERE status >= 400;
