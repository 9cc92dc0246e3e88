import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { publicQuoteRequestSchema, quoteIdempotencyHeaders, quoteResultSchema } from '@/lib/quotes/schemas';

export const createPublicQuoteContract = defineContract({
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/public_quotes',
  summary: 'Create a quote as an anonymous end customer',
  description:
    "Resolves the Business's active connection, its Live environment and primary book, pins the published version and evaluates it.",
  tags: ['Quotes'],
  auth: 'anonymous',
  headers: quoteIdempotencyHeaders,
  body: publicQuoteRequestSchema,
  validationCode: 'invalid_quote_request',
  // Spec 8: 120 public quotes per business per minute.
  rateLimits: [{ name: 'publicQuoteCreate', countBy: (body) => body.businessId }],
  success: { status: 201, description: 'The Quote Intent and its Receipt (also on an idempotent replay).', schema: quoteResultSchema },
  errors: ['quote_surface_unavailable', 'idempotency_conflict', 'invalid_quote_request', 'payload_too_large', 'conflict'],
});

export const getPublicQuoteContract = defineContract({
  method: 'GET',
  path: '/v1/public_quotes/{quoteIntentId}',
  summary: 'Retrieve a quote created on the public route',
  tags: ['Quotes'],
  auth: 'anonymous',
  params: z.object({ quoteIntentId: z.uuid() }),
  success: { status: 200, description: 'The Quote Intent and its Receipt.', schema: quoteResultSchema },
  errors: ['not_found'],
});
