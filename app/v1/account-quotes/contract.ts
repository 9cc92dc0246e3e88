import { z } from 'zod';
import { accountQuotesFilterShape, accountQuotesPage, accountQuoteViewSchema, workspaceReviewQuoteRequestSchema } from '@/lib/accounts/account-schemas';
import { defineContract } from '@/lib/http/contract';

// Workspace routes (DESIGN.md): an integration's quotes in the environment the integrator picks,
// as the request log's environment filter does. Member routes (/v1/businesses/{id}/account-quotes)
// use the business's Live connection only (spec 9).
const who =
  'Workspace members with `businesses:manage` in the business\'s workspace (403 `forbidden` to a person who holds it in no workspace, 404 to one who does not hold it there). Business members see the Live quotes on `/v1/businesses/{id}/account-quotes`.';

export const listWorkspaceAccountQuotesContract = defineContract({
  operationId: 'listWorkspaceAccountQuotes',
  method: 'GET',
  path: '/v1/account-quotes',
  summary: 'The quotes an integration made on the account surface for a business, in Test or Live: held Test quotes to review',
  description: `${who} \`review=pending&state=awaiting_approval\` is the review inbox, oldest first; every other list is newest first unless \`order\` says otherwise.`,
  tags: ['Account quotes'],
  auth: 'session',
  query: z.strictObject({
    businessId: z.uuid().describe('The business whose connected project made the quotes.'),
    environment: z.enum(['test', 'live']).describe('Which environment of the project.'),
    ...accountQuotesFilterShape,
  }),
  success: accountQuotesPage,
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const reviewWorkspaceAccountQuoteContract = defineContract({
  operationId: 'reviewWorkspaceAccountQuote',
  method: 'POST',
  path: '/v1/account-quotes/{quoteId}/review',
  summary: 'Approve or decline a held quote of an integration, Test or Live',
  description: `${who} As on the member route: the decision is recorded and sent as \`account_quote.approved\` or \`account_quote.declined\` in the quote's environment; the first of concurrent decisions wins (409 \`already_reviewed\`); an expired price cannot be approved (409 \`quote_expired\`).`,
  tags: ['Account quotes'],
  auth: 'session',
  params: z.object({ quoteId: z.uuid() }),
  body: workspaceReviewQuoteRequestSchema,
  success: { status: 200, description: 'The quote with its review.', schema: z.object({ quote: accountQuoteViewSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'already_reviewed', 'quote_expired', 'conflict', 'idempotency_conflict'],
});
