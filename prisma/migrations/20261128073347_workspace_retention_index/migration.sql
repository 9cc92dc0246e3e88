-- CreateIndex
CREATE INDEX "workspaces_request_log_retention_days_idx" ON "workspaces"("request_log_retention_days");
