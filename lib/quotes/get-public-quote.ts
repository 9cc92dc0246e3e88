import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { expireIfDue } from './expire-quote-intents';
import { toQuoteResult } from './quote-views';

/**
 * A quote made on the public route, for anyone holding its id. Quotes made with API keys or
 * by members are not visible here, so the anonymous surface never reveals them.
 */
export async function getPublicQuote(db: DbOrTx, quoteIntentId: string, now: Date) {
  const stored = await db.quoteIntent.findUnique({ where: { id: quoteIntentId }, include: { receipt: true } });
  if (!stored || !stored.receipt || !stored.idempotencyScope.startsWith('public:')) {
    throw new ServiceError('not_found', `Quote ${quoteIntentId} does not exist.`);
  }
  const intent = await expireIfDue(db, stored, now);
  return { result: toQuoteResult(intent, stored.receipt), businessId: stored.businessId };
}
