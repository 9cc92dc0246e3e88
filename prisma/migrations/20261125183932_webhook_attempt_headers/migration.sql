-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "request_headers" JSON,
ADD COLUMN     "response_headers" JSON;
