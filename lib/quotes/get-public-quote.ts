import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { asOf } from './expire-quote-intents';
import { toQuoteResult } from './quote-views';
import { findQuote } from './store';

/**
 * A quote made on the public route, for anyone holding its id. Quotes made with API keys or
 * by members are not visible here, so the anonymous surface never reveals them.
 */
export async function getPublicQuote({ db, now }: VerbContext, { quoteIntentId }: { quoteIntentId: string }) {
  const stored = await findQuote(db, quoteIntentId);
  if (!stored || !stored.intent.idempotencyScope.startsWith('public:')) {
    throw new ServiceError('not_found', `Quote ${quoteIntentId} does not exist.`);
  }
  return { result: toQuoteResult(asOf(stored.intent, now), stored.receipt), businessId: stored.intent.businessId };
}
