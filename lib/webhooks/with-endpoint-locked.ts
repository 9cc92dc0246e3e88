import type { Db, DbOrTx } from '../db/client';

/**
 * Runs `work` in a transaction holding the endpoint FOR UPDATE, unlike a rotation: it waits for
 * transactions that have just written a delivery to this endpoint (their foreign-key check
 * holds KEY SHARE on the row), so a cancel in `work` sees those deliveries too.
 */
export async function withEndpointLocked<T>(db: Db, endpointId: string, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR UPDATE`;
        return work(tx);
      });
    } catch (error) {
      // A claim leasing this endpoint's deliveries at that moment locks them in another order:
      // PostgreSQL ends one of the two as deadlocked; a claim is retried at the next tick anyway.
      if (attempt < 3 && isDeadlock(error)) continue;
      throw error;
    }
  }
}

/** Prisma reports a deadlock as P2034 from its own queries, as P2010 with PostgreSQL's code from raw SQL. */
function isDeadlock(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  return e.code === 'P2034' || e.meta?.driverAdapterError?.cause?.originalCode === '40P01';
}
