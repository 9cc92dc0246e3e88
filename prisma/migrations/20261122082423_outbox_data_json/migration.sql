-- AlterTable: event data is written once and read back whole, so plain json (kept as written,
-- key order included) costs PostgreSQL less than jsonb's parse on every insert.
ALTER TABLE "outbox_events" ALTER COLUMN "data" SET DATA TYPE JSON USING "data"::json;
