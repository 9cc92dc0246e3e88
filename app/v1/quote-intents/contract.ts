import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { quoteComparisonSchema } from '@/lib/quotes/comparison-schemas';
import { businessQuotesFilterShape, businessQuotesPage, quoteIntentSchema, quoteReceiptSchema, quoteVerificationSchema } from '@/lib/quotes/schemas';
import { deliveryStatusSchema } from '@/lib/webhooks/schemas';

const delivery = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  /** Where the endpoint sends now (its URL may have changed since the delivery was made). */
  endpointUrl: z.string(),
  /** The endpoint was deleted since: it sends nothing more, and `endpointUrl` is where it last sent. */
  endpointDeleted: z.boolean(),
  status: deliveryStatusSchema,
  attemptCount: z.number().int(),
  nextAttemptAt: z.iso.datetime().nullable(),
  replayOfId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const quoteTraceSchema = z
  .object({
    quoteIntent: quoteIntentSchema,
    quoteReceipt: quoteReceiptSchema,
    /** The business the quote was for; null for a quote of no business. */
    businessId: z.uuid().nullable(),
    environment: z.enum(['test', 'live']),
    book: z.object({ id: z.uuid(), key: z.string(), name: z.string() }),
    bookVersion: z.object({ id: z.uuid(), number: z.number().int(), artifactHash: z.string() }).nullable(),
    experiment: z
      .object({
        id: z.uuid(),
        name: z.string().nullable().meta({ description: 'The experiment’s name; null if it can no longer be read.' }),
        arm: z.string().meta({ description: '`control` or `variant_<n>`.' }),
        bucket: z.number().int().meta({ description: 'The subject’s bucket (docs/experiments.md).' }),
        buckets: z.number().int().meta({ description: 'Of how many buckets: 10,000.' }),
      })
      .nullable()
      .meta({ description: 'The experiment arm that priced the quote, from its receipt (format 2); null outside any experiment.' }),
    request: z
      .object({
        requestId: z.string(),
        method: z.string(),
        path: z.string(),
        status: z.number().int(),
        principal: z.string(),
        apiKeyId: z.uuid().nullable(),
        latencyMs: z.number().int(),
        createdAt: z.iso.datetime(),
      })
      .nullable(),
    events: z.array(z.object({ id: z.uuid(), type: z.string(), createdAt: z.iso.datetime(), deliveries: z.array(delivery) })),
  })
  .meta({ id: 'QuoteTrace' });

export const traceQuoteContract = defineContract({
  operationId: 'traceQuote',
  method: 'GET',
  path: '/v1/quote-intents/{id}/trace',
  summary: 'Trace a quote: intent, receipt, book version, creating request, events and deliveries',
  description: '`id` is a quote intent id, or the id of the request that created the quote.',
  tags: ['Quotes'],
  auth: 'session',
  params: z.object({ id: z.uuid() }),
  success: { status: 200, description: 'The trace.', schema: quoteTraceSchema },
  errors: ['unauthorized', 'not_found'],
});

export const verifyQuoteContract = defineContract({
  operationId: 'verifyQuote',
  method: 'POST',
  path: '/v1/quote-intents/{id}/verification',
  summary: 'Verify a quote: check its receipt’s signature and price it again from its stored inputs',
  description:
    'The recompute proof (docs/receipts.md): the signature is checked against the published keys, and the stored inputs are priced again against the pinned book version. `verified` when both hold; otherwise the answer says why, down to the first derivation step where the recomputation parts from the receipt. A member of the quote’s business, a workspace member with `logs:read`, or an API key of the quote’s environment.',
  tags: ['Quotes'],
  auth: 'session_or_api_key',
  params: z.object({ id: z.uuid() }),
  success: { status: 200, description: 'The verification.', schema: quoteVerificationSchema },
  errors: ['unauthorized', 'invalid_api_key', 'forbidden', 'not_found'],
});

export const compareQuotesContract = defineContract({
  operationId: 'compareQuotes',
  method: 'GET',
  path: '/v1/quote-intents/{id}/comparison',
  summary: 'Why two quotes of one business differ: answers, book versions, and the steps that priced differently',
  description:
    'Quote `id` is A, quote `with` is B; every difference reads B minus A, and the steps\' `deltaChangeMinor` add up to exactly '
    + '`totalB - totalA`. A member of the quotes\' business or a workspace member with `logs:read`, or an API key of the quotes\' environment. When either quote is not '
    + 'priced, or the two are in different currencies, the answer says so and explains no steps.',
  tags: ['Quotes'],
  auth: 'session_or_api_key',
  params: z.object({ id: z.uuid() }),
  query: z.object({ with: z.uuid().meta({ description: 'The other quote intent (B).' }) }),
  success: { status: 200, description: 'The comparison.', schema: quoteComparisonSchema },
  errors: ['unauthorized', 'invalid_api_key', 'forbidden', 'not_found', 'invalid_request'],
});

export const listQuoteIntentsContract = defineContract({
  operationId: 'listQuoteIntents',
  method: 'GET',
  path: '/v1/quote-intents',
  summary: 'A business\'s quotes in Test, Live or both, newest first (workspace members)',
  description:
    'A workspace route (as the request log and traces are): any active member of the business\'s workspace picks the environment, as an integrator looking at the Test quotes of their integration does; a person in no workspace gets 403, a member of another workspace 404. Business members list the Live quotes on the member route `GET /v1/businesses/{id}/quotes` (spec 9).',
  tags: ['Quotes'],
  auth: 'session',
  query: z.strictObject({
    businessId: z.uuid().describe('The business the quotes were for.'),
    environment: z.enum(['test', 'live']).optional().describe('Omitted: both.'),
    ...businessQuotesFilterShape,
  }),
  success: businessQuotesPage,
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});
