-- CreateTable
CREATE TABLE "event_stream_leases" (
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_stream_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_stream_leases_workspace_id_idx" ON "event_stream_leases"("workspace_id");

-- CreateIndex
CREATE INDEX "outbox_events_environment_id_seq_idx" ON "outbox_events"("environment_id", "seq");

-- Slots of open streams are worth their 30 s at most: no WAL for them. After a crash of
-- PostgreSQL the table starts empty; each process finds its slots gone at its next renewal and
-- ends those streams, whose listeners reconnect and take new ones.
ALTER TABLE "event_stream_leases" SET UNLOGGED;
