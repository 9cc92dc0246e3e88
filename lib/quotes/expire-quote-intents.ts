import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { markDueExpired, markExpired } from './store';

/**
 * An intent that requires input becomes `expired` once its `expiresAt` passes (see
 * docs/quote-lifecycle.md). Reads apply the transition to the row they return; the sweep
 * applies it to every due row.
 */
export async function expireIfDue<T extends { id: string; status: string; expiresAt: Date | null }>(
  db: DbOrTx,
  intent: T,
  now: Date,
): Promise<T> {
  if (intent.status !== 'requires_input' || !intent.expiresAt || intent.expiresAt > now) return intent;
  await markExpired(db, intent.id, now);
  return { ...intent, status: 'expired' };
}

/** The minute job: expires every due intent; returns how many changed. */
export async function expireQuoteIntents({ db, now }: VerbContext): Promise<number> {
  return markDueExpired(db, now);
}
