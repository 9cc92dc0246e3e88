import type { Db, DbOrTx } from '../db/client';
import { isDeadlock } from '../db/transient-error';

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
      // Every writer locks the endpoint before its deliveries, and deliveries in id order, so a
      // deadlock should not happen; if another writer ever breaks that order, retrying is safe.
      if (attempt < 3 && isDeadlock(error)) continue;
      throw error;
    }
  }
}
