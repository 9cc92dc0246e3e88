import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../lib/db/client';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { readTraceOf } from '../../lib/quotes/store';
import { createDayPartition } from '../../lib/requestlog/store';
import type { QuoteIntentRow } from '../../lib/quotes/store';

/**
 * A workspace may keep its request log for up to 3,650 days: one partition a day. A statement
 * prepared on the log is planned once for any values, and PostgreSQL locks every partition of such
 * a plan before it prunes them: traces made that way ran the server out of its lock table under
 * load ("out of shared memory", 500s) once a few hundred days were kept.
 */
const DAYS = 500;
const DAY = 86_400_000;

describe('a request log of years of days', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  const pools: ReturnType<typeof createDb>[] = [];
  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    const today = Math.floor(Date.now() / DAY) * DAY;
    for (let days = 1; days <= DAYS; days++) await createDayPartition(iso.db, new Date(today - days * DAY));
    // Four services' pools: twenty connections tracing at once.
    for (let i = 0; i < 4; i++) pools.push(createDb(iso.url));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await iso.close();
  });

  it('traces quotes sixty-four at a time without running PostgreSQL out of locks', async () => {
    const quote = (): QuoteIntentRow =>
      ({ id: randomUUID(), bookId: randomUUID(), bookVersionId: randomUUID(), environmentId: randomUUID(), workspaceId: randomUUID(), businessId: randomUUID(),
        requestCorrelationId: randomUUID(), createdAt: new Date(Date.now() - 400 * DAY) }) as QuoteIntentRow;
    // PostgreSQL plans a prepared statement for its values five times on a connection, then once for all.
    for (let round = 0; round < 5; round++) {
      const traces = await Promise.allSettled(
        Array.from({ length: 64 }, (_, i) => readTraceOf(pools[i % pools.length].prisma, quote(), { userId: randomUUID(), experimentId: null })),
      );
      const failed = traces.filter((t) => t.status === 'rejected').map((t) => String((t as PromiseRejectedResult).reason));
      expect(failed).toEqual([]);
    }
  });
});
