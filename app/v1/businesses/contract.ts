import { z } from 'zod';
import { brandingSchema, businessOverviewSchema, businessSchema } from '@/lib/businesses/schemas';
import { publishGuardSchema } from '@/lib/books/impact-schemas';
import { timeIdCursorSchema } from '@/lib/db/cursors';
import { accountQuotesFilterShape, accountQuotesPage, accountQuoteViewSchema, reviewQuoteRequestSchema } from '@/lib/accounts/account-schemas';
import { defineContract, type OperationTag } from '@/lib/http/contract';
import { businessFunnelSchema, funnelQueryShape } from '@/lib/funnel/schemas';
import { leadSchema, moveLeadRequestSchema } from '@/lib/leads/schemas';
import { LEAD_STATUSES } from '@/lib/leads/statuses';
import { businessMemberSchema, inviteMemberRequestSchema, updateMemberRequestSchema, workspaceAdminSchema } from '@/lib/members/schemas';
import { businessQuotesFilterShape, businessQuotesPage, memberQuoteRequestSchema, quoteIdempotencyHeaders, quoteResultSchema } from '@/lib/quotes/schemas';

const businessParams = z.object({ businessId: z.uuid() });
const membershipParams = z.object({ businessId: z.uuid(), membershipId: z.uuid() });
const accountQuoteParams = z.object({ businessId: z.uuid(), quoteId: z.uuid() });
const tags: OperationTag[] = ['Businesses'];

export const listBusinessesContract = defineContract({
  operationId: 'listBusinesses',
  method: 'GET',
  path: '/v1/businesses',
  summary: 'Businesses you can see (your workspaces’ and those you are a member of)',
  tags,
  auth: 'session',
  success: {
    status: 200,
    description: 'The businesses, with your membership where you have one.',
    schema: z.object({
      businesses: z.array(
        businessSchema.extend({
          yourMembership: z.object({ id: z.uuid(), role: z.enum(['owner', 'editor', 'viewer']) }).nullable(),
          workspaceAdmins: z.array(workspaceAdminSchema).describe('Whom to ask for what your role does not allow: the admins of the business’s workspace.'),
        }),
      ),
    }),
  },
  errors: ['unauthorized'],
});

export const listMembersContract = defineContract({
  operationId: 'listMembers',
  method: 'GET',
  path: '/v1/businesses/{businessId}/members',
  summary: 'The business’s roster (any active member)',
  tags: ['Members'],
  auth: 'session',
  params: businessParams,
  success: { status: 200, description: 'Active and invited members.', schema: z.object({ members: z.array(businessMemberSchema) }) },
  errors: ['unauthorized', 'not_found'],
});

export const inviteMemberContract = defineContract({
  operationId: 'inviteMember',
  method: 'POST',
  path: '/v1/businesses/{businessId}/members',
  summary: 'Invite a person by email with a role (business owner only)',
  description: 'The membership is `invited` until the person first signs in with that email; then it is `active`.',
  tags: ['Members'],
  auth: 'session',
  params: businessParams,
  body: inviteMemberRequestSchema,
  success: { status: 201, description: 'The invited membership.', schema: z.object({ member: businessMemberSchema }) },
  errors: ['unauthorized', 'not_business_owner', 'not_found', 'conflict', 'invalid_request', 'forbidden'],
});

export const updateMemberContract = defineContract({
  operationId: 'updateMember',
  method: 'PATCH',
  path: '/v1/businesses/{businessId}/members/{membershipId}',
  summary: 'Change a member’s role (business owner only)',
  tags: ['Members'],
  auth: 'session',
  params: membershipParams,
  body: updateMemberRequestSchema,
  success: { status: 200, description: 'The updated membership.', schema: z.object({ member: businessMemberSchema }) },
  errors: ['unauthorized', 'not_business_owner', 'not_found', 'conflict', 'invalid_request', 'forbidden'],
});

export const removeMemberContract = defineContract({
  operationId: 'removeMember',
  method: 'DELETE',
  path: '/v1/businesses/{businessId}/members/{membershipId}',
  summary: 'Remove a member (business owner only); their access ends at once',
  tags: ['Members'],
  auth: 'session',
  params: membershipParams,
  success: { status: 200, description: 'The removed membership.', schema: z.object({ member: businessMemberSchema }) },
  errors: ['unauthorized', 'not_business_owner', 'not_found', 'conflict', 'forbidden'],
});

export const setBrandingContract = defineContract({
  operationId: 'setBranding',
  method: 'PUT',
  path: '/v1/businesses/{businessId}/branding',
  summary: 'Set the branding of the hosted quote page',
  description: 'Workspace members with `businesses:manage`, or the owner of a business on a direct (self-run) connection (spec 4.2).',
  tags,
  auth: 'session',
  params: businessParams,
  body: brandingSchema,
  success: { status: 200, description: 'The business with its new branding.', schema: z.object({ business: businessSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const setPublishGuardContract = defineContract({
  operationId: 'setPublishingSafeguard',
  method: 'PUT',
  path: '/v1/businesses/{businessId}/publish-guard',
  summary: 'Set when publishing a book to Live asks for a typed confirmation',
  description: 'Workspace members with `businesses:manage`, or the owner of a business on a direct (self-run) connection. Defaults: more than 10% of the last 7 days\' quotes changing by more than 10%.',
  tags,
  auth: 'session',
  params: businessParams,
  body: publishGuardSchema,
  success: { status: 200, description: 'The business with its new safeguard.', schema: z.object({ business: businessSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const listBusinessQuotesContract = defineContract({
  operationId: 'listBusinessQuotes',
  method: 'GET',
  path: '/v1/businesses/{businessId}/quotes',
  summary: 'The business\'s Live quotes, newest first (any member of the business, or `businesses:manage`)',
  description:
    'A member route: the business\'s Live connection (spec 9), with no parameter that switches environment (`environment` is refused as an unknown field). Workspace members list Test quotes too with `GET /v1/quote-intents?businessId=…&environment=test`.',
  tags: ['Quotes'],
  auth: 'session',
  params: businessParams,
  query: z.strictObject(businessQuotesFilterShape),
  success: businessQuotesPage,
  errors: ['unauthorized', 'not_found', 'invalid_request'],
});

export const createMemberQuoteContract = defineContract({
  operationId: 'createBusinessQuote',
  // Quotes: the trace (or the stored quote) holds request and answer; the request log keeps failures only.
  logSuccessBodies: false,
  method: 'POST',
  path: '/v1/businesses/{businessId}/quotes',
  summary: 'Create a quote as a business member (Live environment, pinned server-side)',
  tags: ['Quotes'],
  auth: 'session',
  params: businessParams,
  paramsErrorCode: 'quote_scope_not_found',
  headers: quoteIdempotencyHeaders,
  idempotent: { ownKey: 'the key (body field or header) is stored with the quote it made: a retry replays that quote, another request under it is 409' },
  body: memberQuoteRequestSchema,
  validationCode: 'invalid_quote_request',
  success: { status: 201, description: 'The Quote Intent and its Receipt (also on an idempotent replay).', schema: quoteResultSchema },
  errors: ['unauthorized', 'quote_scope_not_found', 'idempotency_conflict', 'invalid_quote_request', 'payload_too_large', 'forbidden', 'conflict'],
});

export const businessOverviewContract = defineContract({
  operationId: 'getBusinessOverview',
  method: 'GET',
  path: '/v1/businesses/{businessId}/overview',
  summary: 'What a business looks at first: Live quotes per day by outcome, API error rate, webhook success, set-up checklist',
  tags,
  auth: 'session',
  params: businessParams,
  success: {
    status: 200,
    description: 'The figures (days in UTC; calls and webhooks over the last 7 days).',
    schema: z.object({ overview: businessOverviewSchema }),
  },
  errors: ['unauthorized', 'not_found'],
});

export const businessFunnelContract = defineContract({
  operationId: 'getBusinessFunnel',
  method: 'GET',
  path: '/v1/businesses/{businessId}/funnel',
  summary: 'The business\'s Live quotes as a funnel, per ISO week and in total: made, priced, needing answers, accepted, committed, won',
  description:
    'Whoever may read the business\'s Overview (any member of the business, or `businesses:manage`). Live only, like the Overview: a member route has no parameter that switches environment. Weeks are ISO weeks in UTC, oldest first, this one (so far) last. Quote counts, priced totals and unanswered questions come from daily rollups a minute job keeps, plus the quotes made since it last ran. Percentiles are nearest-rank over the priced totals in the most common currency.',
  tags,
  auth: 'session',
  params: businessParams,
  query: z.strictObject(funnelQueryShape),
  success: { status: 200, description: 'The funnel.', schema: z.object({ funnel: businessFunnelSchema }) },
  errors: ['unauthorized', 'not_found', 'invalid_request'],
});

export const listBusinessAccountQuotesContract = defineContract({
  operationId: 'listBusinessAccountQuotes',
  method: 'GET',
  path: '/v1/businesses/{businessId}/account-quotes',
  summary: 'The quotes integrations made for the business on the account surface: the review inbox, observed quotes, and the rest',
  description:
    'Any member of the business, or `businesses:manage`. The business\'s Live quotes only: a member route uses the business\'s Live connection (spec 9) and has no parameter that switches environment (`environment` is refused as an unknown field); an integration\'s held Test quotes are reviewed at `/v1/account-quotes`. `review=pending&state=awaiting_approval` is the review inbox, oldest first; every other list is newest first unless `order` says otherwise. Each quote comes with the request, its simulation by the pinned version, why it was held, and the signed quote.',
  tags: ['Account quotes'],
  auth: 'session',
  params: businessParams,
  query: z.strictObject(accountQuotesFilterShape),
  success: accountQuotesPage,
  errors: ['unauthorized', 'not_found', 'invalid_request'],
});

export const getBusinessAccountQuoteContract = defineContract({
  operationId: 'getBusinessAccountQuote',
  method: 'GET',
  path: '/v1/businesses/{businessId}/account-quotes/{quoteId}',
  summary: 'One Live account-surface quote of the business, with its review, validity and commitment',
  tags: ['Account quotes'],
  auth: 'session',
  params: accountQuoteParams,
  success: { status: 200, description: 'The quote.', schema: z.object({ quote: accountQuoteViewSchema }) },
  errors: ['unauthorized', 'not_found'],
});

export const reviewAccountQuoteContract = defineContract({
  operationId: 'reviewAccountQuote',
  method: 'POST',
  path: '/v1/businesses/{businessId}/account-quotes/{quoteId}/review',
  summary: 'Approve a held Live quote (it becomes `quoted`, committable) or decline it with a reason',
  description:
    'The business\'s owner, or workspace members with `businesses:manage`; Live quotes only (a member route: spec 9). Held Test quotes are reviewed at `POST /v1/account-quotes/{quoteId}/review`. The decision is recorded (who, when, why) and sent as `account_quote.approved` or `account_quote.declined`. Of concurrent decisions on one quote the first wins; the others answer 409 `already_reviewed`. An expired price cannot be approved (409 `quote_expired`).',
  tags: ['Account quotes'],
  auth: 'session',
  params: accountQuoteParams,
  body: reviewQuoteRequestSchema,
  success: { status: 200, description: 'The quote with its review.', schema: z.object({ quote: accountQuoteViewSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'already_reviewed', 'quote_expired', 'conflict', 'idempotency_conflict'],
});

const leadParams = z.object({ businessId: z.uuid(), leadId: z.uuid() });

export const listLeadsContract = defineContract({
  operationId: 'listLeads',
  method: 'GET',
  path: '/v1/businesses/{businessId}/leads',
  summary: 'Quotes customers accepted on the hosted page, newest first, with how to reach them',
  description: 'Any member of the business, or `businesses:manage`: nobody else sees contact details.',
  tags: ['Leads'],
  auth: 'session',
  params: businessParams,
  query: z.object({
    status: z.enum(LEAD_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: timeIdCursorSchema.optional(),
  }),
  success: { status: 200, description: 'One page; pass `nextCursor` as `cursor` for the next.', schema: z.object({ leads: z.array(leadSchema), nextCursor: z.string().nullable() }) },
  errors: ['unauthorized', 'not_found', 'invalid_request'],
});

export const moveLeadContract = defineContract({
  operationId: 'moveLead',
  method: 'PATCH',
  path: '/v1/businesses/{businessId}/leads/{leadId}',
  summary: 'Move a lead along the pipeline: new, contacted, won, lost',
  description: 'The business\'s owners and editors, or `businesses:manage`; viewers read. An erased lead has left the pipeline (409 `conflict`).',
  tags: ['Leads'],
  auth: 'session',
  params: leadParams,
  body: moveLeadRequestSchema,
  // The customer's details are not kept with the answer for replays: erasure must find them nowhere.
  idempotent: { notKept: ['lead.contact', 'lead.note'] },
  success: { status: 200, description: 'The lead.', schema: z.object({ lead: leadSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request', 'conflict'],
});

export const eraseLeadContract = defineContract({
  operationId: 'eraseLead',
  method: 'POST',
  path: '/v1/businesses/{businessId}/leads/{leadId}/erasure',
  summary: 'Erase a lead\'s personal data on the person\'s request; the quote and its receipt stay',
  description:
    'The business\'s owner, or `businesses:manage`. Name, email, phone and note are removed from the lead and from the `quote_intent.accepted` event that carried them, and the request log forgets the customer\'s address, browser and request bodies (docs/quote-lifecycle.md says exactly what is kept). The lead\'s status becomes `erased`: it leaves the pipeline. Erasing again answers the erased lead.',
  tags: ['Leads'],
  auth: 'session',
  params: leadParams,
  success: { status: 200, description: 'The lead, without its personal data.', schema: z.object({ lead: leadSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found', 'idempotency_conflict'],
});
