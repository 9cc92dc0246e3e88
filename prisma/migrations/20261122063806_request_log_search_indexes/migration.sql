-- DropIndex
DROP INDEX "request_logs_project_id_environment_id_created_at_idx";

-- DropIndex
DROP INDEX "request_logs_workspace_id_created_at_idx";

-- CreateIndex
CREATE INDEX "request_logs_workspace_id_id_idx" ON "request_logs"("workspace_id", "id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_project_id_environment_id_id_idx" ON "request_logs"("project_id", "environment_id", "id" DESC);

-- Hand-written: error searches (status classes 4xx/5xx) without scanning every success.
CREATE INDEX request_logs_errors_idx ON request_logs (workspace_id, id DESC) WHERE status >= 400;
