import { limitOn } from '../ratelimit/registry';
import { createQuote, type QuoteContext } from './create-quote';
import { publicQuoteScope } from './resolve-quote-scope';
import { publicIdempotencyScope } from './store';
import type { publicQuoteRequestSchema } from './schemas';
import type { z } from 'zod';

/**
 * POST /v1/public_quotes: an anonymous quote against the business's Live publication. Each new
 * quote counts against the business's limit (spec 8: 120 a minute), in the quote's own statement;
 * the system's own quotes (the demo's seed, the bench's fill) count against nothing.
 */
export async function createPublicQuote(ctx: QuoteContext, request: z.output<typeof publicQuoteRequestSchema>, visitorId?: string) {
  return createQuote(ctx, {
    resolveScope: publicQuoteScope(ctx.db, request.businessId, request.idempotencyKey),
    source: 'hosted',
    surface: 'hosted',
    idempotencyScope: publicIdempotencyScope(request.businessId),
    inputs: { offeringId: request.offeringId, factors: request.factors },
    idempotencyKey: request.idempotencyKey,
    subject: visitorId,
    payload: { businessId: request.businessId, offeringId: request.offeringId, factors: request.factors },
    whenUnpublished: 'surface_unavailable',
    limit: ctx.principal.kind === 'system' ? undefined : limitOn('publicQuoteCreate', request.businessId),
  });
}
