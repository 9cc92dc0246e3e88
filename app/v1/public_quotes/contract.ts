import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { acceptanceStateSchema, acceptQuoteRequestSchema, publicAcceptanceSchema } from '@/lib/leads/schemas';
import { publicQuoteRequestSchema, quoteIdempotencyHeaders, quoteResultSchema } from '@/lib/quotes/schemas';

export const createPublicQuoteContract = defineContract({
  operationId: 'createPublicQuote',
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/public_quotes',
  summary: 'Create a quote as an anonymous end customer',
  description:
    "Resolves the Business's active connection, its Live environment and primary book, pins the published version and evaluates it.",
  tags: ['Public quotes'],
  auth: 'anonymous',
  headers: quoteIdempotencyHeaders,
  idempotent: { ownKey: 'the key (body field or header) is stored with the quote it made: a retry replays that quote, another request under it is 409' },
  body: publicQuoteRequestSchema,
  validationCode: 'invalid_quote_request',
  // Spec 8: 120 public quotes per business per minute, counted by the quote's insert (lib/quotes/create-public-quote.ts).
  rateLimits: [{ name: 'publicQuoteCreate', countBy: 'verb' }],
  success: { status: 201, description: 'The Quote Intent and its Receipt (also on an idempotent replay).', schema: quoteResultSchema },
  errors: ['quote_surface_unavailable', 'idempotency_conflict', 'invalid_quote_request', 'payload_too_large', 'conflict', 'service_unavailable'],
});

export const getPublicQuoteContract = defineContract({
  operationId: 'getPublicQuote',
  method: 'GET',
  path: '/v1/public_quotes/{quoteIntentId}',
  summary: 'Retrieve a quote created on the public route',
  tags: ['Public quotes'],
  auth: 'anonymous',
  params: z.object({ quoteIntentId: z.uuid() }),
  success: { status: 200, description: 'The Quote Intent and its Receipt.', schema: quoteResultSchema },
  errors: ['not_found'],
});

const quoteParams = z.object({ quoteIntentId: z.uuid() });

export const getAcceptanceStateContract = defineContract({
  operationId: 'getQuoteAcceptance',
  method: 'GET',
  path: '/v1/public_quotes/{quoteIntentId}/acceptance',
  summary: 'Whether the customer accepted this quote, and if not, the form to accept it with',
  description:
    'Anonymous, for quotes made on the hosted page. `form` carries a token to send with the acceptance (valid from 2 seconds to 24 hours after it is issued) and the business\'s consent sentence; it is null when the quote is accepted already, not priced or expired (`refusal` says which). Contact details are never shown here.',
  tags: ['Public quotes'],
  auth: 'anonymous',
  params: quoteParams,
  success: { status: 200, description: 'The acceptance, or how to accept.', schema: acceptanceStateSchema },
  // 503: an instance without a usable sealing key cannot make or check a form.
  errors: ['not_found', 'service_unavailable'],
});

export const acceptQuoteContract = defineContract({
  operationId: 'acceptQuote',
  method: 'POST',
  path: '/v1/public_quotes/{quoteIntentId}/acceptance',
  summary: 'Accept a priced quote from the hosted page, leaving how to be reached',
  description:
    'Anonymous. Binds the acceptance to the receipt the customer saw (its id and signature) and sends `quote_intent.accepted` to the business\'s Live endpoints. Accepting again with the same details answers the first acceptance (`idempotent-replayed: true`); with other details, 409 `quote_already_accepted` with `details.acceptedAt` (never the first person\'s details). New acceptances count against the business of the quote (30 a minute, 10 of them from one client address); refused and repeated posts count against nothing. Contact details are personal data: the request log keeps no value of an acceptance body, they are never logged, and shown only to the business.',
  tags: ['Public quotes'],
  auth: 'anonymous',
  params: quoteParams,
  body: acceptQuoteRequestSchema,
  personalData: true,
  // Counted by the verb, by the quote's business, for new acceptances only (docs/quote-lifecycle.md).
  rateLimits: [
    { name: 'publicAcceptancePerClient', countBy: 'verb' },
    { name: 'publicAcceptanceCreate', countBy: 'verb' },
  ],
  success: { status: 201, description: 'The acceptance (also when the quote was accepted before).', schema: z.object({ acceptance: publicAcceptanceSchema }) },
  errors: ['invalid_request', 'not_found', 'quote_surface_unavailable', 'quote_not_priced', 'quote_expired', 'quote_already_accepted', 'payload_too_large', 'service_unavailable'],
});
