import type { VerbContext } from '../context/verb-context';
import { EXPIRING_STATUSES, markDueExpired } from './store';

/**
 * The intent as it reads at `now`: a priced intent past its validity, or one that waited too long
 * for answers, reads `expired` on every surface whether or not the sweep has marked it yet.
 * Reads never write; the receipt is untouched either way.
 */
export function asOf<T extends { status: string; expiresAt: Date | null }>(intent: T, now: Date): T {
  const expiring = (EXPIRING_STATUSES as readonly string[]).includes(intent.status);
  return expiring && intent.expiresAt !== null && intent.expiresAt <= now ? { ...intent, status: 'expired' } : intent;
}

/** The minute job: marks every due intent expired; returns how many changed. */
export async function expireQuoteIntents({ db, now }: VerbContext): Promise<number> {
  return markDueExpired(db, now);
}
