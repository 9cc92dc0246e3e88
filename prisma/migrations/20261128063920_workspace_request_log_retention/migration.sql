-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "request_log_retention_days" INTEGER;

-- A day to ten years, as the API takes it (lib/requestlog/retention.ts).
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_request_log_retention_days_check"
  CHECK ("request_log_retention_days" BETWEEN 1 AND 3650);
