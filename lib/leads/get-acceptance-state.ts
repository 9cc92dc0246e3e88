import { consentSentence } from '../businesses/acceptance-consent';
import { findBranding } from '../businesses/store';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { asOf } from '../quotes/expire-quote-intents';
import { findQuote } from '../quotes/store';
import { requireSealingKey } from '../sealing/check-sealing-key';
import { issueFormToken } from './form-token';
import { toPublicAcceptance } from './lead-view';
import type { AcceptanceState } from './schemas';
import { findAcceptanceOfQuote } from './store';

/**
 * GET /v1/public_quotes/{id}/acceptance: whether the customer accepted this hosted-page quote,
 * and if not, how they may (a fresh form token and the business's consent sentence) or why they
 * cannot. Anonymous like the quote itself; it never shows contact details.
 */
export async function getAcceptanceState(ctx: VerbContext, { quoteIntentId }: { quoteIntentId: string }): Promise<AcceptanceState> {
  const { db, now } = ctx;
  // The form's token is keyed by the sealing key: one another instance could not check is no form.
  await requireSealingKey(ctx, 'Quote acceptances');
  const stored = await findQuote(db, quoteIntentId);
  if (!stored || !stored.intent.idempotencyScope.startsWith('public:') || !stored.intent.businessId) {
    throw new ServiceError('not_found', `Quote ${quoteIntentId} does not exist.`);
  }
  const existing = await findAcceptanceOfQuote(db, quoteIntentId);
  if (existing) return { acceptance: toPublicAcceptance(existing), form: null, refusal: null };
  if (stored.receipt.outcome !== 'succeeded') return { acceptance: null, form: null, refusal: 'not_priced' };
  if (asOf(stored.intent, now).status === 'expired') return { acceptance: null, form: null, refusal: 'expired' };
  const business = await findBranding(db, stored.intent.businessId);
  return { acceptance: null, form: { token: issueFormToken(quoteIntentId, now), consentText: consentSentence(business) }, refusal: null };
}
