import { defineContract } from '@/lib/http/contract';
import { apiQuoteRequestSchema, quoteIdempotencyHeaders, quoteResultSchema } from '@/lib/quotes/schemas';

export const createApiQuoteContract = defineContract({
  operationId: 'createQuote',
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/quotes',
  summary: 'Create a quote with a secret API key',
  description:
    "Creates a Quote Intent in the key's environment (Test or Live, by its prefix), pins the book version published there and evaluates it.",
  tags: ['Quotes'],
  auth: 'api_key',
  headers: quoteIdempotencyHeaders,
  idempotent: { ownKey: 'the key (body field or header) is stored with the quote it made: a retry replays that quote, another request under it is 409' },
  body: apiQuoteRequestSchema,
  validationCode: 'invalid_quote_request',
  success: { status: 201, description: 'The Quote Intent and its Receipt (also on an idempotent replay).', schema: quoteResultSchema },
  errors: ['invalid_api_key', 'quote_scope_not_found', 'idempotency_conflict', 'invalid_quote_request', 'payload_too_large', 'conflict'],
});
