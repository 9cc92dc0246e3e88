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

-- Takes a slot for a new event stream when its key and its workspace are under their bounds
-- (lib/webhooks/store/stream-leases.ts): one statement for the caller, whose connection is held
-- for a millisecond, never while waiting. A workspace's takers go one at a time: the
-- transaction-level advisory lock is tried, not waited for ('busy': the caller tries again), and
-- each statement of a volatile function takes a fresh snapshot, so the count sees every slot
-- committed before it. A slot past its expiry no longer counts and is deleted here.
CREATE FUNCTION take_event_stream_lease(
    p_id uuid, p_api_key_id uuid, p_workspace_id uuid, p_holder text, p_ttl_seconds int, p_per_key int, p_per_workspace int,
    OUT outcome text, OUT of_key int, OUT of_workspace int, OUT key_frees_in int, OUT workspace_frees_in int
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtextextended('event_stream_leases:' || p_workspace_id::text, 0)) THEN
        outcome := 'busy';
        RETURN;
    END IF;
    DELETE FROM event_stream_leases WHERE workspace_id = p_workspace_id AND expires_at <= now();
    SELECT count(*) FILTER (WHERE api_key_id = p_api_key_id), count(*),
           COALESCE(ceil(EXTRACT(EPOCH FROM min(expires_at) FILTER (WHERE api_key_id = p_api_key_id) - now())), 0),
           COALESCE(ceil(EXTRACT(EPOCH FROM min(expires_at) - now())), 0)
      INTO of_key, of_workspace, key_frees_in, workspace_frees_in
      FROM event_stream_leases WHERE workspace_id = p_workspace_id;
    IF of_key >= p_per_key THEN
        outcome := 'key';
    ELSIF of_workspace >= p_per_workspace THEN
        outcome := 'workspace';
    ELSE
        INSERT INTO event_stream_leases (id, api_key_id, workspace_id, holder, expires_at)
            VALUES (p_id, p_api_key_id, p_workspace_id, p_holder, now() + make_interval(secs => p_ttl_seconds));
        outcome := 'granted';
    END IF;
END;
$$;
