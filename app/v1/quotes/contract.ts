import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { apiQuoteRequestSchema, businessQuotesFilterShape, quoteIdempotencyHeaders, quoteResultSchema, quoteSubjectHeader } from '@/lib/quotes/schemas';

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
  headers: quoteIdempotencyHeaders.extend({ 'quote-subject': quoteSubjectHeader }),
  idempotent: { ownKey: 'the key (body field or header) is stored with the quote it made: a retry replays that quote, another request under it is 409' },
  body: apiQuoteRequestSchema,
  validationCode: 'invalid_quote_request',
  success: { status: 201, description: 'The Quote Intent and its Receipt (also on an idempotent replay).', schema: quoteResultSchema },
  errors: ['invalid_api_key', 'quote_scope_not_found', 'idempotency_conflict', 'invalid_quote_request', 'payload_too_large', 'conflict'],
});

// Not in spec 4.1 (ours, issue 40): an API key reads back its environment's quotes. Any valid
// key may, as it may create them (POST /v1/quotes takes no scope) and verify or compare them.
const READ_BACK =
  'Not in the spec (an addition): any valid key of the environment may read, as any may create (no scope, like `POST /v1/quotes`). Quotes of the key’s environment only, whatever made them (this key, another key, members, the hosted page); Test and Live never see each other’s.';

export const listQuotesContract = defineContract({
  operationId: 'listQuotes',
  method: 'GET',
  path: '/v1/quotes',
  summary: 'The quotes of the key’s environment, newest first',
  description: `${READ_BACK} Each item is what \`POST /v1/quotes\` answers, \`{ quoteIntent, quoteReceipt }\` (the receipt signed); \`status\` reads as of now (an intent past its validity is \`expired\`).`,
  tags: ['Quotes'],
  auth: 'api_key',
  query: z.strictObject({
    ...businessQuotesFilterShape,
    offeringId: z.string().min(1).max(80).optional().describe('Only quotes asking for this offering.'),
    from: z.iso.datetime({ offset: true }).optional().describe('Only quotes created at or after this time.'),
    to: z.iso.datetime({ offset: true }).optional().describe('Only quotes created at or before this time.'),
  }),
  success: {
    status: 200,
    description: 'One page; pass `nextCursor` as `cursor` for the next (with the same filters).',
    schema: z.object({ quotes: z.array(quoteResultSchema), nextCursor: z.string().nullable() }),
  },
  errors: ['invalid_api_key', 'invalid_request'],
});

export const getQuoteContract = defineContract({
  operationId: 'getQuote',
  method: 'GET',
  path: '/v1/quotes/{id}',
  summary: 'One quote of the key’s environment',
  description: `${READ_BACK} Another environment’s or tenant’s quote answers 404 \`not_found\`, as an unknown id does.`,
  tags: ['Quotes'],
  auth: 'api_key',
  params: z.object({ id: z.uuid() }),
  success: { status: 200, description: 'The Quote Intent and its Receipt, as `POST /v1/quotes` answered them.', schema: quoteResultSchema },
  errors: ['invalid_api_key', 'not_found'],
});
