-- AlterTable
ALTER TABLE "request_logs" ADD COLUMN     "test_fault" TEXT;
