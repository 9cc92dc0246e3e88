import type { z } from 'zod';
import type { ApiKeyPrincipal } from '../auth/principal';
import { createQuote, type QuoteContext } from './create-quote';
import { apiQuoteScope } from './resolve-quote-scope';
import type { apiQuoteRequestSchema } from './schemas';

/** POST /v1/quotes: a quote in the API key's own environment; nothing can switch it. */
export async function createApiQuote(ctx: QuoteContext<ApiKeyPrincipal>, request: z.output<typeof apiQuoteRequestSchema>, subject?: string) {
  const { principal } = ctx;
  return createQuote(ctx, {
    resolveScope: apiQuoteScope(ctx.db, principal, request, { scope: 'api', key: request.idempotencyKey }),
    apiKey: principal,
    source: 'api',
    surface: 'api',
    idempotencyScope: 'api',
    inputs: { offeringId: request.offeringId, factors: request.factors },
    idempotencyKey: request.idempotencyKey,
    subject,
    payload: {
      businessId: request.businessId,
      bookId: request.bookId,
      offeringId: request.offeringId,
      factors: request.factors,
    },
    whenUnpublished: 'failed_receipt',
  });
}
