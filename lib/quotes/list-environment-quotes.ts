import type { ApiKeyPrincipal } from '../auth/principal';
import { readDbOf, type VerbContext } from '../context/verb-context';
import { asOf } from './expire-quote-intents';
import { findInspectableQuote } from './quote-access';
import { toQuoteResult } from './quote-views';
import type { QuoteResult } from './schemas';
import { listQuotesOfEnvironment, type EnvironmentQuotesQuery } from './store';

export type { EnvironmentQuotesQuery } from './store';

/**
 * GET /v1/quotes: the quotes of the key's environment (every source: API, members, the hosted
 * page), newest first, each as POST /v1/quotes answers it. The key's environment is the only
 * scope; no parameter reaches another (spec 5.1).
 */
export async function listEnvironmentQuotes(
  ctx: VerbContext<ApiKeyPrincipal>,
  query: EnvironmentQuotesQuery,
): Promise<{ quotes: QuoteResult[]; nextCursor: string | null }> {
  const { page, nextCursor } = await listQuotesOfEnvironment(readDbOf(ctx), ctx.principal.environmentId, query, ctx.now);
  return { quotes: page.map(({ intent, receipt }) => toQuoteResult(asOf(intent, ctx.now), receipt)), nextCursor };
}

/** GET /v1/quotes/{id}: one quote of the key's environment; any other answers 404 `not_found`. */
export async function getEnvironmentQuote(ctx: VerbContext<ApiKeyPrincipal>, id: string): Promise<QuoteResult> {
  const { intent, receipt } = await findInspectableQuote(ctx, id);
  return toQuoteResult(intent, receipt);
}
