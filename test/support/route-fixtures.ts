import { randomUUID } from 'node:crypto';
import { v1Contracts } from '../../app/v1/contracts';
import type { RouteContract } from '../../lib/http/contract';
import { createApiKey } from '../../lib/keys/create-api-key';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { api } from './api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';

/**
 * One tenant with a resource of every kind and a person or key for every right, so that each
 * route of the registry (every route file's contract, app/v1/contracts.ts) can be called as it should be and as it must not.
 */
export type World = {
  tenant: Tenant;
  /** Every workspace permission, and owner of the business. */
  admin: Person;
  /** A business viewer, with no workspace membership. */
  viewer: Person;
  /** A second viewer, whose membership the suite may remove. */
  spareViewer: Person;
  /** A workspace member without any permission. */
  member: Person;
  versionId: string;
  /** A draft experiment on the book's Test publication, which the suite may start, stop, then promote. */
  experimentId: string;
  endpointId: string;
  /** An endpoint the suite may delete or rotate. */
  spareEndpointId: string;
  deliveryId: string;
  /** The test event of that delivery (the world's Test environment). */
  testEventId: string;
  quoteIntentId: string;
  /** The request that created it (in the request log). */
  quoteRequestId: string;
  /** A quoted Live quote of the account surface. */
  accountQuoteId: string;
  /** A Live account quote held for review (it needs a site visit), which the suite may approve. */
  heldQuoteId: string;
  /** The same, made with the Test key: reviewed on the workspace route only (spec 9). */
  testHeldQuoteId: string;
  /** A lead: a second public quote, accepted by its customer. */
  leadId: string;
  /** A key the suite may rotate or revoke. */
  spareKeyId: string;
  keys: { test: string; live: string; accountsReadOnly: string; noAccountsRead: string };
};

export async function createWorld(): Promise<World> {
  const tenant = await createTenant();
  const [admin, viewer, spareViewer, member] = await Promise.all([
    createPerson(tenant, { permissions: 'all', businessRole: 'owner' }),
    createPerson(tenant, { businessRole: 'viewer' }),
    createPerson(tenant, { businessRole: 'viewer' }),
    createPerson(tenant, { permissions: [] }),
  ]);
  const db = testDb();
  const key = async (scopes?: string[]) => createApiKey(testContext(db), { projectId: tenant.projectId, environment: 'test', name: 'suite key', scopes });
  const [accountsReadOnly, noAccountsRead, spare] = await Promise.all([
    key(['accounts:read']),
    key(['simulations:write', 'quotes:write', 'commitments:write', 'logs:read', 'quote-spec:read']),
    key(),
  ]);
  const endpoint = async () =>
    (
      await api('POST', '/v1/webhook-endpoints', {
        key: admin.token,
        body: { projectId: tenant.projectId, environment: 'test', url: `https://hooks.example.com/${randomUUID()}` },
      })
    ).body.data.endpoint.id as string;
  const [endpointId, spareEndpointId] = await Promise.all([endpoint(), endpoint()]);
  const delivery = await api('POST', `/v1/webhook-endpoints/${endpointId}/test-events`, { key: admin.token });
  const quote = await api('POST', '/v1/public_quotes', {
    body: { businessId: tenant.businessId, offeringId: demoExample.offeringId, factors: demoExample.factors },
  });
  const accountQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
    key: tenant.keys.live,
    headers: { 'idempotency-key': randomUUID() },
    body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
  });
  const heldQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
    key: tenant.keys.live,
    headers: { 'idempotency-key': randomUUID() },
    body: { services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } }] },
  });
  const testHeldQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
    key: tenant.keys.test,
    headers: { 'idempotency-key': randomUUID() },
    body: { services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } }] },
  });
  const accepted = await api('POST', '/v1/public_quotes', {
    body: { businessId: tenant.businessId, offeringId: 'gutter_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } },
  });
  const acceptance = await api('POST', `/v1/public_quotes/${accepted.body.data?.quoteIntent.id}/acceptance`, {
    body: acceptanceBody(tenant.businessId, accepted.body.data?.quoteIntent.id),
  });
  const version = await db.bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId }, select: { id: true } });
  for (const res of [delivery, quote, accountQuote, heldQuote, testHeldQuote, accepted, acceptance]) if (res.status !== 201) throw new Error(`world: ${res.status} ${res.text}`);
  const experiment = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
    key: admin.token,
    body: { environment: 'test', name: 'Suite experiment', controlWeight: 50, variants: [{ versionId: version.id, weight: 50 }] },
  });
  if (experiment.status !== 201) throw new Error(`world: ${experiment.status} ${experiment.text}`);
  const lead = await db.quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: accepted.body.data.quoteIntent.id }, select: { id: true } });
  return {
    tenant,
    admin,
    viewer,
    spareViewer,
    member,
    versionId: version.id,
    experimentId: experiment.body.data.experiment.id,
    endpointId,
    spareEndpointId,
    deliveryId: delivery.body.data.delivery.id,
    testEventId: delivery.body.data.delivery.eventId,
    quoteIntentId: quote.body.data.quoteIntent.id,
    quoteRequestId: quote.body.requestId,
    accountQuoteId: accountQuote.body.quote_id,
    heldQuoteId: heldQuote.body.quote_id,
    testHeldQuoteId: testHeldQuote.body.quote_id,
    leadId: lead.id,
    spareKeyId: spare.apiKey.id,
    keys: { test: tenant.keys.test, live: tenant.keys.live, accountsReadOnly: accountsReadOnly.secret, noAccountsRead: noAccountsRead.secret },
  };
}

/** A customer's acceptance of a public quote, its form shown a few seconds ago. */
function acceptanceBody(businessId: string, quoteIntentId: string) {
  return {
    businessId,
    contact: { name: 'Suite Customer', email: 'suite.customer@example.test' },
    consent: true,
    formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)),
  };
}

/** What a credential of another tenant (with every right there) gets for this world's route. */
export type Foreign =
  | { status: number; code: string }
  /** A list: it answers, with none of this world's rows. */
  | 'own rows only'
  /** Anonymous, or an id that is itself the credential (a public quote): nothing to cross. */
  | 'no tenant'
  /** A stream of the key's own environment (its events come from no other: test/sdk/cli-listen). */
  | 'own stream';

export type RouteFixture = {
  path: (w: World) => string;
  /** A valid body (fresh values where the route needs unique ones). */
  body?: (w: World) => unknown;
  headers?: (w: World) => Record<string, string>;
  /** A credential with every right the route needs; undefined for anonymous routes. */
  as: (w: World) => string | undefined;
  /** A credential of the same tenant that lacks the route's right, and what it must get. */
  lacking?: { as: (w: World) => string; status: 403 | 404; code: string };
  foreign: Foreign;
  /** A body the route's schema refuses (default: an unknown field). */
  badBody?: unknown;
  /** A query the route's schema refuses. */
  badQuery?: string;
  /** Answers with a stream that does not end: the suite checks its status and type, then hangs up. */
  stream?: true;
};

const admin = (w: World) => w.admin.token;
const member = { as: (w: World) => w.member.token, status: 403, code: 'forbidden' } as const;
const notFound = { status: 404, code: 'not_found' } as const;
const accountNotFound = notFound;
const scope = (w: World) => w.keys.accountsReadOnly;
const lackingScope = { as: scope, status: 403, code: 'insufficient_scope' } as const;
const services = () => ({ services: [{ service: demoExample.offeringId, selections: demoExample.factors }] });

/** Every route of the registry, by `METHOD /path/template`. A route without one fails the suite. */
export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  'GET /v1/status': { path: () => '/v1/status', as: () => undefined, foreign: 'no tenant' },
  'GET /v1/status/ready': { path: () => '/v1/status/ready', as: () => undefined, foreign: 'no tenant' },
  'GET /v1/openapi.json': { path: () => '/v1/openapi.json', as: () => undefined, foreign: 'no tenant' },
  'POST /v1/public_quotes': {
    path: () => '/v1/public_quotes',
    body: (w) => ({ businessId: w.tenant.businessId, offeringId: demoExample.offeringId, factors: demoExample.factors }),
    as: () => undefined,
    foreign: 'no tenant',
  },
  'GET /v1/public_quotes/{quoteIntentId}': { path: (w) => `/v1/public_quotes/${w.quoteIntentId}`, as: () => undefined, foreign: 'no tenant' },
  'GET /v1/public_quotes/{quoteIntentId}/acceptance': {
    path: (w) => `/v1/public_quotes/${w.quoteIntentId}/acceptance`,
    as: () => undefined,
    foreign: 'no tenant',
  },
  'POST /v1/public_quotes/{quoteIntentId}/acceptance': {
    path: (w) => `/v1/public_quotes/${w.quoteIntentId}/acceptance`,
    body: (w) => acceptanceBody(w.tenant.businessId, w.quoteIntentId),
    as: () => undefined,
    foreign: 'no tenant',
  },
  'POST /v1/quotes': {
    path: () => '/v1/quotes',
    body: (w) => quoteRequest(w.tenant),
    as: (w) => w.keys.test,
    foreign: { status: 404, code: 'quote_scope_not_found' },
  },
  // Any valid key reads its environment's quotes (no scope): the world's quote is the public one, in Live.
  'GET /v1/quotes': { path: () => '/v1/quotes', as: (w) => w.keys.live, foreign: 'own rows only', badQuery: '?status=priced' },
  'GET /v1/quotes/{id}': { path: (w) => `/v1/quotes/${w.quoteIntentId}`, as: (w) => w.keys.live, foreign: notFound },
  'GET /v1/businesses': { path: () => '/v1/businesses', as: admin, foreign: 'own rows only' },
  'GET /v1/businesses/{businessId}/members': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/members`,
    as: admin,
    // Neither a member of the business nor with `businesses:manage`: it does not exist for them.
    lacking: { as: (w) => w.member.token, status: 404, code: 'not_found' },
    foreign: notFound,
  },
  'POST /v1/businesses/{businessId}/members': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/members`,
    body: () => ({ email: `invitee-${randomUUID()}@example.test`, role: 'editor' }),
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'not_business_owner' },
    foreign: notFound,
  },
  'PATCH /v1/businesses/{businessId}/members/{membershipId}': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/members/${w.viewer.membershipId}`,
    body: () => ({ role: 'viewer' }),
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'not_business_owner' },
    foreign: { status: 403, code: 'not_business_owner' },
  },
  'DELETE /v1/businesses/{businessId}/members/{membershipId}': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/members/${w.spareViewer.membershipId}`,
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'not_business_owner' },
    foreign: { status: 403, code: 'not_business_owner' },
  },
  'PUT /v1/businesses/{businessId}/branding': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/branding`,
    body: () => ({ displayName: 'Suite', logoUrl: null, primaryColor: '#112233', accentColor: '#445566' }),
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
  },
  'PUT /v1/businesses/{businessId}/publish-guard': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/publish-guard`,
    body: () => ({ changePercent: 10, sharePercent: 10 }),
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
    badBody: { changePercent: 0, sharePercent: 10 },
  },
  'GET /v1/businesses/{businessId}/overview': { path: (w) => `/v1/businesses/${w.tenant.businessId}/overview`, as: admin, foreign: notFound },
  'GET /v1/businesses/{businessId}/funnel': { path: (w) => `/v1/businesses/${w.tenant.businessId}/funnel`, as: admin, foreign: notFound },
  'GET /v1/businesses/{businessId}/quotes': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/quotes`,
    as: admin,
    foreign: notFound,
    badQuery: '?status=priced',
  },
  'GET /v1/businesses/{businessId}/account-quotes': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/account-quotes`,
    as: admin,
    lacking: { as: (w) => w.member.token, status: 404, code: 'not_found' },
    foreign: notFound,
    badQuery: '?review=maybe',
  },
  'GET /v1/businesses/{businessId}/account-quotes/{quoteId}': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/account-quotes/${w.heldQuoteId}`,
    as: admin,
    lacking: { as: (w) => w.member.token, status: 404, code: 'not_found' },
    foreign: notFound,
  },
  'POST /v1/businesses/{businessId}/account-quotes/{quoteId}/review': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/account-quotes/${w.heldQuoteId}/review`,
    body: () => ({ decision: 'approved' }),
    as: admin,
    // A viewer sees the quote but may not decide: told why, not that it does not exist.
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
    badBody: { decision: 'declined' },
  },
  'GET /v1/account-quotes': {
    path: (w) => `/v1/account-quotes?businessId=${w.tenant.businessId}&environment=test`,
    as: admin,
    lacking: member,
    // Another workspace's manager: the business does not exist for them.
    foreign: notFound,
    badQuery: '&review=maybe',
  },
  'POST /v1/account-quotes/{quoteId}/review': {
    path: (w) => `/v1/account-quotes/${w.testHeldQuoteId}/review`,
    body: (w) => ({ businessId: w.tenant.businessId, decision: 'approved' }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { decision: 'declined' },
  },
  'GET /v1/businesses/{businessId}/leads': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/leads`,
    as: admin,
    lacking: { as: (w) => w.member.token, status: 404, code: 'not_found' },
    foreign: notFound,
    badQuery: '?status=hot',
  },
  'PATCH /v1/businesses/{businessId}/leads/{leadId}': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/leads/${w.leadId}`,
    body: () => ({ status: 'contacted' }),
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
  },
  'POST /v1/businesses/{businessId}/leads/{leadId}/erasure': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/leads/${w.leadId}/erasure`,
    as: admin,
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
  },
  'POST /v1/businesses/{businessId}/quotes': {
    path: (w) => `/v1/businesses/${w.tenant.businessId}/quotes`,
    body: (w) => ({ bookId: w.tenant.bookId, ...demoExample }),
    as: admin,
    lacking: { as: (w) => w.member.token, status: 404, code: 'quote_scope_not_found' },
    foreign: { status: 404, code: 'quote_scope_not_found' },
  },
  'POST /v1/api-keys': {
    path: () => '/v1/api-keys',
    body: (w) => ({ name: 'suite', projectId: w.tenant.projectId, environment: 'test' }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/api-keys': { path: () => '/v1/api-keys', as: admin, foreign: 'own rows only', badQuery: '?environment=staging' },
  'POST /v1/api-keys/{keyId}/rotation': {
    path: (w) => `/v1/api-keys/${w.spareKeyId}/rotation`,
    body: () => ({ graceMinutes: 60 }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'POST /v1/api-keys/{keyId}/revocation': { path: (w) => `/v1/api-keys/${w.spareKeyId}/revocation`, as: admin, lacking: member, foreign: notFound },
  'GET /v1/books': { path: () => '/v1/books', as: admin, foreign: 'own rows only', badQuery: '?projectId=nope' },
  'POST /v1/books': {
    path: () => '/v1/books',
    body: (w) => ({ projectId: w.tenant.projectId, key: `suite-${randomUUID().slice(0, 8)}`, name: 'Suite book' }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/books/{bookId}': { path: (w) => `/v1/books/${w.tenant.bookId}`, as: admin, foreign: notFound },
  'PUT /v1/books/{bookId}/draft': {
    path: (w) => `/v1/books/${w.tenant.bookId}/draft`,
    body: () => ({ artifact: demoBookArtifact }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'POST /v1/books/{bookId}/preview': {
    path: (w) => `/v1/books/${w.tenant.bookId}/preview`,
    body: () => ({ artifact: demoBookArtifact, ...demoExample }),
    as: admin,
    foreign: notFound,
  },
  'POST /v1/books/{bookId}/impact': {
    path: (w) => `/v1/books/${w.tenant.bookId}/impact`,
    body: (w) => ({ versionId: w.versionId, window: '24h' }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { window: '3d' },
  },
  'POST /v1/books/{bookId}/versions': {
    path: (w) => `/v1/books/${w.tenant.bookId}/versions`,
    body: () => ({ artifact: demoBookArtifact }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { artifact: demoBookArtifact, extra: 1 },
  },
  'GET /v1/books/{bookId}/versions/{versionId}': {
    path: (w) => `/v1/books/${w.tenant.bookId}/versions/${w.versionId}`,
    as: admin,
    foreign: notFound,
  },
  'POST /v1/books/{bookId}/publications': {
    path: (w) => `/v1/books/${w.tenant.bookId}/publications`,
    body: (w) => ({ versionId: w.versionId, environment: 'test' }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/books/{bookId}/publications': {
    path: (w) => `/v1/books/${w.tenant.bookId}/publications`,
    as: admin,
    foreign: notFound,
    badQuery: '?limit=0',
  },
  'POST /v1/books/{bookId}/experiments': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments`,
    body: (w) => ({ environment: 'live', name: 'Suite', controlWeight: 90, variants: [{ versionId: w.versionId, weight: 10 }] }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { environment: 'live', name: 'Suite', controlWeight: 90, variants: [{ versionId: randomUUID(), weight: 20 }] },
  },
  'GET /v1/books/{bookId}/experiments': { path: (w) => `/v1/books/${w.tenant.bookId}/experiments`, as: admin, foreign: notFound },
  'GET /v1/books/{bookId}/experiments/{experimentId}': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments/${w.experimentId}`,
    as: admin,
    foreign: notFound,
  },
  'GET /v1/books/{bookId}/experiments/{experimentId}/results': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments/${w.experimentId}/results`,
    as: admin,
    foreign: notFound,
  },
  // Started, then stopped: the registry lists start before stop.
  'POST /v1/books/{bookId}/experiments/{experimentId}/start': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments/${w.experimentId}/start`,
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'POST /v1/books/{bookId}/experiments/{experimentId}/stop': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments/${w.experimentId}/stop`,
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  // Then promoted: the control, which publishes nothing (the fixtures list promote after stop).
  'POST /v1/books/{bookId}/experiments/{experimentId}/promote': {
    path: (w) => `/v1/books/${w.tenant.bookId}/experiments/${w.experimentId}/promote`,
    body: () => ({ arm: 'control' }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { arm: 'winner' },
  },
  'GET /v1/request-logs/{requestId}': {
    path: (w) => `/v1/request-logs/${w.quoteRequestId}`,
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/event-types': { path: () => '/v1/event-types', as: () => undefined, foreign: 'no tenant' },
  'GET /v1/events/{id}': { path: (w) => `/v1/events/${w.testEventId}`, as: (w) => w.keys.test, lacking: lackingScope, foreign: notFound },
  'POST /v1/event-triggers': {
    path: () => '/v1/event-triggers',
    // Republishes the world's Test version: prices stay as they are.
    body: (w) => ({ type: 'book_version.published', bookId: w.tenant.bookId }),
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: notFound,
    badBody: { type: 'business_member.invited' },
  },
  'GET /v1/event-stream': {
    path: () => '/v1/event-stream',
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: 'own stream',
    badQuery: '?after=latest',
    stream: true,
  },
  'GET /v1/request-logs': { path: () => '/v1/request-logs', as: admin, lacking: member, foreign: 'own rows only', badQuery: '?status=abc' },
  'GET /v1/quote-intents': {
    path: (w) => `/v1/quote-intents?businessId=${w.tenant.businessId}&environment=test`,
    as: admin,
    // A business member in no workspace: Test quotes are not theirs to see.
    lacking: { as: (w) => w.viewer.token, status: 403, code: 'forbidden' },
    foreign: notFound,
    badQuery: '&status=priced',
  },
  'GET /v1/quote-intents/{id}/trace': { path: (w) => `/v1/quote-intents/${w.quoteIntentId}/trace`, as: admin, foreign: notFound },
  'POST /v1/quote-intents/{id}/verification': {
    path: (w) => `/v1/quote-intents/${w.quoteIntentId}/verification`,
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/receipt-signing-keys': { path: () => '/v1/receipt-signing-keys', as: () => undefined, foreign: 'no tenant' },
  'GET /v1/quote-intents/{id}/comparison': {
    // A quote compared with itself: nothing differs, and the route answers all the same.
    path: (w) => `/v1/quote-intents/${w.quoteIntentId}/comparison?with=${w.quoteIntentId}`,
    as: admin,
    lacking: member,
    foreign: notFound,
    // Appended to the path's query: the last `with` counts.
    badQuery: '&with=nope',
  },
  'GET /v1/workspaces': { path: () => '/v1/workspaces', as: admin, foreign: 'own rows only' },
  'PATCH /v1/workspaces/{workspaceId}': {
    path: (w) => `/v1/workspaces/${w.tenant.workspaceId}`,
    body: () => ({ requestLogRetentionDays: null }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/me': { path: () => '/v1/me', as: admin, foreign: 'no tenant' },
  'GET /v1/me/inbox': { path: () => '/v1/me/inbox', as: admin, foreign: 'no tenant' },
  'POST /v1/webhook-endpoints': {
    path: () => '/v1/webhook-endpoints',
    body: (w) => ({ projectId: w.tenant.projectId, environment: 'test', url: `https://hooks.example.com/${randomUUID()}` }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/webhook-endpoints': { path: () => '/v1/webhook-endpoints', as: admin, lacking: member, foreign: 'own rows only', badQuery: '?environment=staging' },
  'GET /v1/webhook-endpoints/{id}': { path: (w) => `/v1/webhook-endpoints/${w.endpointId}`, as: admin, lacking: member, foreign: notFound },
  'PATCH /v1/webhook-endpoints/{id}': {
    path: (w) => `/v1/webhook-endpoints/${w.endpointId}`,
    body: () => ({ description: 'suite' }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'DELETE /v1/webhook-endpoints/{id}': { path: (w) => `/v1/webhook-endpoints/${w.spareEndpointId}`, as: admin, lacking: member, foreign: notFound },
  'POST /v1/webhook-endpoints/{id}/secret-rotation': {
    path: (w) => `/v1/webhook-endpoints/${w.endpointId}/secret-rotation`,
    body: () => ({ overlapMinutes: 0 }),
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'POST /v1/webhook-endpoints/{id}/test-events': { path: (w) => `/v1/webhook-endpoints/${w.endpointId}/test-events`, as: admin, lacking: member, foreign: notFound },
  'POST /v1/webhook-endpoints/{id}/replays': {
    path: (w) => `/v1/webhook-endpoints/${w.endpointId}/replays`,
    body: () => ({ since: new Date(Date.now() - 86_400_000).toISOString(), dryRun: true }),
    as: admin,
    lacking: member,
    foreign: notFound,
    badBody: { since: 'yesterday' },
  },
  'GET /v1/webhook-endpoints/{id}/stats': { path: (w) => `/v1/webhook-endpoints/${w.endpointId}/stats`, as: admin, lacking: member, foreign: notFound },
  'GET /v1/webhook-deliveries': { path: () => '/v1/webhook-deliveries', as: admin, lacking: member, foreign: 'own rows only', badQuery: '?limit=abc' },
  'GET /v1/webhook-deliveries/{deliveryId}': { path: (w) => `/v1/webhook-deliveries/${w.deliveryId}`, as: admin, lacking: member, foreign: notFound },
  'POST /v1/webhook-deliveries/{deliveryId}/replay': {
    path: (w) => `/v1/webhook-deliveries/${w.deliveryId}/replay`,
    as: admin,
    lacking: member,
    foreign: notFound,
  },
  'GET /v1/accounts/current': { path: () => '/v1/accounts/current', as: (w) => w.keys.test, foreign: 'own rows only' },
  'GET /v1/accounts': { path: () => '/v1/accounts', as: (w) => w.keys.test, lacking: { as: (w) => w.keys.noAccountsRead, status: 403, code: 'insufficient_scope' }, foreign: 'own rows only' },
  'GET /v1/accounts/{id}': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}`,
    as: (w) => w.keys.test,
    lacking: { as: (w) => w.keys.noAccountsRead, status: 403, code: 'insufficient_scope' },
    foreign: accountNotFound,
  },
  'GET /v1/accounts/{id}/quote-spec': { path: (w) => `/v1/accounts/${w.tenant.projectId}/quote-spec`, as: (w) => w.keys.test, lacking: lackingScope, foreign: accountNotFound },
  'POST /v1/accounts/{id}/quote-simulations': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/quote-simulations`,
    body: services,
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: accountNotFound,
  },
  'POST /v1/accounts/{id}/quotes': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/quotes`,
    body: services,
    headers: () => ({ 'idempotency-key': randomUUID() }),
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: accountNotFound,
  },
  'GET /v1/accounts/{id}/quotes': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/quotes`,
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: accountNotFound,
    badQuery: '?state=priced',
  },
  'GET /v1/accounts/{id}/quotes/{quoteId}': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/quotes/${w.accountQuoteId}`,
    as: (w) => w.keys.live,
    lacking: lackingScope,
    foreign: accountNotFound,
  },
  'POST /v1/accounts/{id}/quotes/{quoteId}/commitment/confirm': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/quotes/${w.accountQuoteId}/commitment/confirm`,
    body: () => ({ external_ref: 'suite-order' }),
    as: (w) => w.keys.live,
    lacking: lackingScope,
    foreign: accountNotFound,
  },
  'GET /v1/accounts/{id}/request-logs': {
    path: (w) => `/v1/accounts/${w.tenant.projectId}/request-logs`,
    as: (w) => w.keys.test,
    lacking: lackingScope,
    foreign: accountNotFound,
    badQuery: '?limit=0',
  },
};

export const routeKey = (contract: Pick<RouteContract, 'method' | 'path'>) => `${contract.method} ${contract.path}`;

/**
 * Every contract with its fixture, in the fixtures' order (a key is rotated before it is revoked,
 * an experiment started and stopped before it is promoted); throws for a contract that has none,
 * naming it.
 */
export function fixturesOfRegistry(): { contract: RouteContract; fixture: RouteFixture }[] {
  const order = Object.keys(ROUTE_FIXTURES);
  const contracts = [...v1Contracts()].sort((a, b) => order.indexOf(routeKey(a)) - order.indexOf(routeKey(b)));
  return contracts.map((contract) => {
    const fixture = ROUTE_FIXTURES[routeKey(contract)];
    if (!fixture) throw new Error(`${routeKey(contract)} has no entry in test/support/route-fixtures.ts: add one`);
    return { contract, fixture };
  });
}
