-- AlterTable
ALTER TABLE "request_logs" ADD COLUMN     "user_id" UUID;
