import { isTransaction, withTransaction, type VerbContext } from '../context/verb-context';
import { isDeadlock } from '../db/transient-error';
import { lockEndpoint } from './store';

/**
 * Runs `work` in a transaction (the caller's, or its own: withTransaction) holding the endpoint
 * FOR UPDATE, unlike a rotation: it waits for transactions that have just written a delivery to
 * this endpoint (their foreign-key check holds KEY SHARE on the row), so a cancel in `work` sees
 * those deliveries too.
 */
export async function withEndpointLocked<C extends VerbContext, T>(ctx: C, endpointId: string, work: (tx: C) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(ctx, async (tx) => {
        await lockEndpoint(tx.db, endpointId, 'update');
        return work(tx);
      });
    } catch (error) {
      // Every writer locks the endpoint before its deliveries, and deliveries in id order, so a
      // deadlock should not happen; if another writer ever breaks that order, retrying is safe
      // (in a transaction of its own: a caller's transaction is aborted, and its caller decides).
      if (attempt < 3 && isDeadlock(error) && !isTransaction(ctx.db)) continue;
      throw error;
    }
  }
}
