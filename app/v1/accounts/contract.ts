import { z } from 'zod';
import {
  accountListSchema,
  accountQuoteListSchema,
  accountQuoteRecordSchema,
  accountRequestLogListSchema,
  accountSchema,
  commitmentRequestSchema,
  commitmentSchema,
  producedQuoteSchema,
  quoteSpecSchema,
  simulationRequestSchema,
  simulationSchema,
} from '@/lib/accounts/account-schemas';
import { accountQuota, defineContract, type OperationTag } from '@/lib/http/contract';
import { timeIdCursorSchema, timeSequenceCursorSchema } from '@/lib/db/cursors';
import { quoteSubjectHeader } from '@/lib/quotes/schemas';

const tags: OperationTag[] = ['Accounts'];
const accountParams = z.object({ id: z.string().max(100) });
const common = ['invalid_api_key', 'revoked_api_key'] as const;
const NOTHING_PUBLISHED = 'With no price book published in the key’s environment it answers 404 `not_found`.';

export const currentAccountContract = defineContract({
  operationId: 'getCurrentAccount',
  method: 'GET',
  path: '/v1/accounts/current',
  summary: 'The account this key belongs to (any valid key; a liveness check)',
  tags,
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  success: { status: 200, description: 'The account.', schema: accountSchema, enveloped: false },
  errors: [...common],
});

export const listAccountsContract = defineContract({
  operationId: 'listAccounts',
  method: 'GET',
  path: '/v1/accounts',
  summary: 'Accounts this key can address (`accounts:read`)',
  tags,
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'accounts:read',
  success: { status: 200, description: 'A list with the key’s account.', schema: accountListSchema, enveloped: false },
  errors: [...common, 'insufficient_scope'],
});

export const getAccountContract = defineContract({
  operationId: 'getAccount',
  method: 'GET',
  path: '/v1/accounts/{id}',
  summary: 'Retrieve an account (`accounts:read`)',
  tags,
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'accounts:read',
  params: accountParams,
  success: { status: 200, description: 'The account.', schema: accountSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found'],
});

export const quoteSpecContract = defineContract({
  operationId: 'getQuoteSpec',
  method: 'GET',
  path: '/v1/accounts/{id}/quote-spec',
  summary: 'The published book’s specification: services and selections (`quote-spec:read`)',
  description: NOTHING_PUBLISHED,
  tags,
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'quote-spec:read',
  params: accountParams,
  success: { status: 200, description: 'Services and their selections, by id and label.', schema: quoteSpecSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found'],
});

export const simulateContract = defineContract({
  operationId: 'simulateQuote',
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/accounts/{id}/quote-simulations',
  summary: 'Price services against the published book without storing anything (`simulations:write`)',
  description: NOTHING_PUBLISHED,
  tags: ['Quotes'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'simulations:write',
  params: accountParams,
  body: simulationRequestSchema,
  success: { status: 200, description: 'The simulation.', schema: simulationSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found', 'invalid_request', 'payload_too_large'],
});

export const createAccountQuoteContract = defineContract({
  operationId: 'createAccountQuote',
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/accounts/{id}/quotes',
  summary: 'Produce a persisted quote and dispose of it per the book’s autonomy mode (`quotes:write`)',
  description: `Requires the \`Idempotency-Key\` header (at most 200 characters): the same key and body replay the answer; another body answers 409. ${NOTHING_PUBLISHED} Nothing is stored then.`,
  tags: ['Quotes'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'quotes:write',
  params: accountParams,
  headers: z.object({ 'idempotency-key': z.string().min(1).max(200), 'quote-subject': quoteSubjectHeader }),
  idempotent: { ownKey: 'the required key is stored with the account quote it made, per account and environment (spec 4.3)' },
  body: simulationRequestSchema,
  success: { status: 201, description: 'The produced quote.', schema: producedQuoteSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found', 'invalid_request', 'idempotency_conflict', 'payload_too_large'],
});

// Not in spec 4.3 (ours, issue 40): reading back the quotes a key's account produced. The scope
// is the one that produces them, `quotes:write` (write implies read, as in Stripe's restricted
// keys): `accounts:read` is for the account itself (spec 5.3), not what was made in it.
const READ_BACK =
  'Not in the spec (an addition). Scope `quotes:write`, the scope that produces them (write implies read). Quotes of the key’s environment only. Each is `{ object: "account_quote", id, state, expired, review, commitment, created, quote }`: `quote` is the signed quote exactly as `POST …/quotes` answered it (its signature verifies); `state`, `review` and `commitment` say what became of it since.';

export const listAccountQuotesContract = defineContract({
  operationId: 'listAccountQuotes',
  method: 'GET',
  path: '/v1/accounts/{id}/quotes',
  summary: 'The quotes this account produced in the key’s environment, newest first (`quotes:write`)',
  description: READ_BACK,
  tags: ['Quotes'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'quotes:write',
  params: accountParams,
  query: z.strictObject({
    state: accountQuoteRecordSchema.shape.state.optional().describe('Only quotes in this state now.'),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    cursor: timeIdCursorSchema.optional().describe('`next_cursor` of the previous page.'),
  }),
  success: { status: 200, description: 'One page; pass `next_cursor` as `cursor` for the next.', schema: accountQuoteListSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found', 'invalid_request'],
});

export const getAccountQuoteContract = defineContract({
  operationId: 'getAccountQuote',
  method: 'GET',
  path: '/v1/accounts/{id}/quotes/{quoteId}',
  summary: 'One quote this account produced in the key’s environment (`quotes:write`)',
  description: `${READ_BACK} A quote of another environment or account answers 404 \`not_found\`.`,
  tags: ['Quotes'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'quotes:write',
  params: z.object({ id: z.string().max(100), quoteId: z.uuid() }),
  success: { status: 200, description: 'The quote.', schema: accountQuoteRecordSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found'],
});

export const confirmCommitmentContract = defineContract({
  operationId: 'confirmCommitment',
  method: 'POST',
  path: '/v1/accounts/{id}/quotes/{quoteId}/commitment/confirm',
  summary: 'Confirm a commitment on a quoted quote (Live keys only; `commitments:write`)',
  description:
    'Only a `quoted` quote whose price still holds: a declined one answers 409 `quote_declined`, an expired one 409 `quote_expired`. With `receipt_signature` or `expected_total`, a quote that is not the one the customer saw answers 409 `receipt_mismatch` naming the difference.',
  tags: ['Quotes'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'commitments:write',
  params: z.object({ id: z.string().max(100), quoteId: z.uuid() }),
  body: commitmentRequestSchema,
  success: { status: 200, description: 'The confirmed commitment (the same answer when repeated).', schema: commitmentSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'forbidden', 'not_found', 'conflict', 'quote_declined', 'quote_expired', 'receipt_mismatch', 'invalid_request'],
});

export const accountRequestLogsContract = defineContract({
  operationId: 'listAccountRequestLogs',
  method: 'GET',
  path: '/v1/accounts/{id}/request-logs',
  summary: 'This account’s API requests in the key’s environment, newest first (`logs:read`)',
  tags: ['Request logs'],
  auth: 'api_key',
  surface: 'account',
  rateLimits: [accountQuota],
  scope: 'logs:read',
  params: accountParams,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(100).default(25),
    cursor: timeSequenceCursorSchema.optional(),
  }),
  success: { status: 200, description: 'One page.', schema: accountRequestLogListSchema, enveloped: false },
  errors: [...common, 'insufficient_scope', 'not_found', 'invalid_request'],
});
