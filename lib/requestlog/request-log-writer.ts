import type { DbOrTx } from '../db/client';
import { isTransientDatabaseError } from '../db/transient-error';
import { logger } from '../observability/logger';
import { insertRequestLogs, type RequestLogEntry } from './store';

/** What the route wrapper records per request: a row of the store's. */
export type { RequestLogEntry } from './store';

const FLUSH_INTERVAL_MS = 50;
const MAX_BATCH = 500;

/**
 * Writes request-log rows in batches off the request's path: one multi-row INSERT every
 * 50 ms instead of one round trip per request. A crash can lose at most that window. A batch
 * PostgreSQL refuses is written again row by row, so that one row it cannot take (whatever a
 * caller sent; the store escapes what it knows to be refused) costs no other caller theirs.
 */
export class RequestLogWriter {
  private queue: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: () => DbOrTx) {}

  record(entry: RequestLogEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue.splice(0, this.queue.length);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: RequestLogEntry[]): Promise<void> {
    try {
      await insertRequestLogs(this.db(), batch);
      return;
    } catch (error) {
      // A lost connection or a deadlock is the batch's luck, not a row's: once more, whole.
      if (isTransientDatabaseError(error)) {
        await insertRequestLogs(this.db(), batch).catch((again: unknown) => logger.error({ err: again, lost: batch.length }, 'request log write failed'));
        return;
      }
      if (batch.length === 1) return lost(batch[0], error);
      logger.warn({ err: error, rows: batch.length }, 'request log batch refused; writing its rows one by one');
    }
    for (const entry of batch) {
      await insertRequestLogs(this.db(), [entry]).catch(async () => {
        // The row without what a caller sent (bodies, agent, address): its request still counts.
        const bare = { ...entry, requestBody: null, responseBody: null, userAgent: null, ip: null };
        await insertRequestLogs(this.db(), [bare]).catch((error: unknown) => lost(entry, error));
      });
    }
  }
}

function lost(entry: RequestLogEntry, error: unknown): void {
  logger.error({ err: error, requestId: entry.requestId }, 'request log row lost');
}
