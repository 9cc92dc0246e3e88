-- Rate-limit counters are worth a minute at most: no WAL for them. A public quote's counter
-- upsert then commits without waiting for a WAL flush; after a crash the table starts empty
-- (every limit's window starts again), and standbys do not carry it (only the primary counts).
ALTER TABLE "rate_limits" SET UNLOGGED;
