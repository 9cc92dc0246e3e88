-- DropIndex
DROP INDEX "outbox_events_dispatched_at_seq_idx";

-- Hand-written: writers fan events out as they write them, so only events written without
-- their deliveries (an older version during a rolling update) wait here for the dispatcher.
CREATE INDEX outbox_events_undispatched_idx ON outbox_events (seq) WHERE dispatched_at IS NULL;
