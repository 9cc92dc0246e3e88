import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { rollUpQuotes } from '../../lib/quotes/quote-rollup';
import { rollUpQuoteFunnel } from '../../lib/quotes/store';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { settleAfterNewest } from '../support/rollup-settle';

/**
 * Issue 41, section 4: the funnel of a business's Live quotes — made, priced, needing answers,
 * accepted, committed, won — with the spread of priced totals and the questions left unanswered,
 * read from the rollups the minute job keeps (driven here directly, no clock waits).
 */

type Answers = Record<string, string | null>;
const window = (factors: Answers) => ({ offeringId: 'window_cleaning', factors });
const gutter = (factors: Answers) => ({ offeringId: 'gutter_cleaning', factors });

const apiQuote = async (t: Tenant, body: { offeringId: string; factors: Answers }, environment: 'live' | 'test' = 'live') => {
  const res = await api('POST', '/v1/quotes', { key: t.keys[environment], body: { businessId: t.businessId, bookId: t.bookId, ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { quoteIntent: { id: string }; quoteReceipt: { outcome: string; missingInputs: string[]; computation: { totalMinor: number; currency: string } | null } };
};
const hostedQuote = async (t: Tenant, body: { offeringId: string; factors: Answers }) => {
  const res = await api('POST', '/v1/public_quotes', { body: { businessId: t.businessId, ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { quoteIntent: { id: string }; quoteReceipt: { computation: { totalMinor: number } } };
};
const accept = async (t: Tenant, quoteIntentId: string) => {
  const res = await api('POST', `/v1/public_quotes/${quoteIntentId}/acceptance`, {
    body: {
      businessId: t.businessId,
      contact: { name: 'Alex Rivera', email: `alex-${randomUUID().slice(0, 8)}@example.test` },
      consent: true,
      formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)),
    },
  });
  expect(res.status).toBe(201);
};
const accountQuote = async (t: Tenant) => {
  const res = await api('POST', `/v1/accounts/${t.projectId}/quotes`, {
    key: t.keys.live,
    headers: { 'idempotency-key': randomUUID() },
    body: { services: [{ service: 'window_cleaning', selections: demoExample.factors }] },
  });
  expect(res.body.state).toBe('quoted');
  return res.body.quote_id as string;
};
const funnel = (t: Tenant, person: Person, query = '') => api('GET', `/v1/businesses/${t.businessId}/funnel${query}`, { key: person.token });

/** p25, median, p75 by nearest rank of the totals written out. */
function percentiles(totals: number[]) {
  const sorted = [...totals].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
  return { currency: 'USD', quotes: sorted.length, p25Minor: at(0.25), medianMinor: at(0.5), p75Minor: at(0.75) };
}

describe('the funnel of a business', () => {
  let tenant: Tenant;
  let other: Tenant;
  let owner: Person;
  const pricedTotals: number[] = [];
  const gutterTotals: number[] = [];

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    owner = await createPerson(tenant, { businessRole: 'owner' });

    // Priced through the API: four, one of them gutter cleaning.
    for (const body of [window(demoExample.factors), window(demoExample.factors), window({ home_size: 'large', storeys: '3', access: 'difficult' }), gutter({ home_size: 'medium', storeys: '2', access: 'easy' })]) {
      const made = await apiQuote(tenant, body);
      expect(made.quoteReceipt.outcome).toBe('succeeded');
      pricedTotals.push(made.quoteReceipt.computation!.totalMinor);
      if (body.offeringId === 'gutter_cleaning') gutterTotals.push(made.quoteReceipt.computation!.totalMinor);
    }
    // Needing answers: storeys left out three times (once by a gutter quote), home size once.
    for (const [body, missing] of [
      [window({ home_size: 'medium', access: 'easy' }), ['factors.storeys']],
      [gutter({ home_size: 'small', access: 'easy' }), ['factors.storeys']],
      [window({ access: 'easy' }), ['factors.home_size', 'factors.storeys']],
    ] as const) {
      const made = await apiQuote(tenant, body);
      expect(made.quoteReceipt).toMatchObject({ outcome: 'requires_input', missingInputs: missing });
    }
    // Failed: an offering the book lacks.
    expect((await apiQuote(tenant, { offeringId: 'no_such_offering', factors: demoExample.factors })).quoteReceipt.outcome).toBe('failed');
    // On the hosted page: three priced, two accepted, one of those won.
    const hosted: string[] = [];
    for (const factors of [demoExample.factors, { ...demoExample.factors, home_size: 'small' }, demoExample.factors]) {
      const made = await hostedQuote(tenant, window(factors));
      pricedTotals.push(made.quoteReceipt.computation.totalMinor);
      hosted.push(made.quoteIntent.id);
    }
    await accept(tenant, hosted[0]);
    await accept(tenant, hosted[1]);
    const leads = (await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: owner.token })).body.data.leads as { id: string; quoteIntentId: string }[];
    const lead = leads.find((l) => l.quoteIntentId === hosted[1])!;
    expect((await api('PATCH', `/v1/businesses/${tenant.businessId}/leads/${lead.id}`, { key: owner.token, body: { status: 'won' } })).status).toBe(200);
    // On the account surface: two quoted, one committed.
    const committed = await accountQuote(tenant);
    await accountQuote(tenant);
    const commitment = await api('POST', `/v1/accounts/${tenant.projectId}/quotes/${committed}/commitment/confirm`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': randomUUID() },
      body: { external_ref: `order-${randomUUID().slice(0, 8)}` },
    });
    expect(commitment.status).toBe(200);

    // Not this business's Live funnel: its Test quotes, and another business's everything.
    await apiQuote(tenant, window({ home_size: 'medium' }), 'test');
    await apiQuote(tenant, window(demoExample.factors), 'test');
    const stranger = await hostedQuote(other, window(demoExample.factors));
    await accept(other, stranger.quoteIntent.id);
    await apiQuote(other, window({ access: 'easy' }));
    await accountQuote(other);
  });

  const expectedTotal = () => ({ quotes: 11, priced: 7, requiresInput: 3, accepted: 2, committed: 1, won: 1, price: percentiles(pricedTotals) });
  const expectedUnanswered = [
    { input: 'factors.storeys', factorId: 'storeys', label: 'Storeys', quotes: 3 },
    { input: 'factors.home_size', factorId: 'home_size', label: 'Home size', quotes: 1 },
  ];

  it('counts every stage, the price spread and the unanswered questions, before the job runs and after (from its rollups)', async () => {
    const before = await funnel(tenant, owner);
    expect(before.status).toBe(200);
    const read = before.body.data.funnel;
    expect(read.environment).toBe('live');
    expect(read.weeks).toHaveLength(12);
    expect(read.total).toEqual(expectedTotal());
    expect(read.weeks.at(-1)).toMatchObject(expectedTotal());
    expect(read.weeks.slice(0, -1).every((w: { quotes: number; price: unknown }) => w.quotes === 0 && w.price === null)).toBe(true);
    expect(read.unanswered).toEqual(expectedUnanswered);
    expect(read.offerings.map((o: { id: string }) => o.id)).toEqual(['window_cleaning', 'gutter_cleaning', 'solar_panel_cleaning']);
    // Monday first, ISO week labels, this week last.
    const last = read.weeks.at(-1);
    expect(new Date(`${last.start}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(last.week).toMatch(/^\d{4}-W\d{2}$/);
    expect(read.from).toBe(read.weeks[0].start);

    // The minute job counts the quotes into the rollups (with a settle time just past this test's newest quote, so all of them now).
    await rollUpQuotes(testContext(testDb()));
    const settle = () => settleAfterNewest(testDb(), `SELECT max(created_at) FROM quote_intents WHERE business_id = $1::uuid`, tenant.businessId);
    await rollUpQuoteFunnel(testDb(), await settle());
    const rolled = await testDb().quoteFunnelDaily.findMany({ where: { businessId: tenant.businessId, environmentId: tenant.environments.live } });
    expect(rolled.reduce((n, r) => n + Number(r.quotes), 0)).toBe(11);
    const missing = await testDb().quoteMissingInputsDaily.findMany({ where: { businessId: tenant.businessId, environmentId: tenant.environments.live } });
    expect(missing.reduce((n, r) => n + (r.input === 'factors.storeys' ? Number(r.quotes) : 0), 0)).toBe(3);
    const prices = await testDb().quotePricesDaily.findMany({ where: { businessId: tenant.businessId, environmentId: tenant.environments.live } });
    expect(prices.reduce((n, r) => n + Number(r.quotes), 0)).toBe(7);

    const after = (await funnel(tenant, owner)).body.data.funnel;
    expect(after).toEqual(read);
    // Nothing counted twice by a second run.
    await rollUpQuoteFunnel(testDb(), await settle());
    expect((await funnel(tenant, owner)).body.data.funnel).toEqual(read);
  });

  it('narrows to one offering', async () => {
    const res = await funnel(tenant, owner, '?offeringId=gutter_cleaning&weeks=4');
    expect(res.status).toBe(200);
    const read = res.body.data.funnel;
    expect(read.offeringId).toBe('gutter_cleaning');
    expect(read.weeks).toHaveLength(4);
    expect(read.total).toEqual({ quotes: 2, priced: 1, requiresInput: 1, accepted: 0, committed: 0, won: 0, price: percentiles(gutterTotals) });
    expect(read.unanswered).toEqual([{ input: 'factors.storeys', factorId: 'storeys', label: 'Storeys', quotes: 1 }]);
    const windows = (await funnel(tenant, owner, '?offeringId=window_cleaning')).body.data.funnel.total;
    expect(windows).toMatchObject({ quotes: 8, priced: 6, requiresInput: 2, accepted: 2, committed: 1, won: 1 });
  });

  it('never shows another business\'s quotes', async () => {
    const otherOwner = await createPerson(other, { businessRole: 'owner' });
    const read = (await funnel(other, otherOwner)).body.data.funnel;
    expect(read.total).toMatchObject({ quotes: 2, priced: 1, requiresInput: 1, accepted: 1, committed: 0, won: 0 });
    expect(read.unanswered).toEqual([
      { input: 'factors.home_size', factorId: 'home_size', label: 'Home size', quotes: 1 },
      { input: 'factors.storeys', factorId: 'storeys', label: 'Storeys', quotes: 1 },
    ]);
    // Nor does a business with no quotes see any.
    const empty = await createTenant();
    const emptyOwner = await createPerson(empty, { businessRole: 'owner' });
    const none = (await funnel(empty, emptyOwner)).body.data.funnel;
    expect(none.total).toEqual({ quotes: 0, priced: 0, requiresInput: 0, accepted: 0, committed: 0, won: 0, price: null });
    expect(none.unanswered).toEqual([]);
  });

  it('is read by whoever reads the Overview; to anyone else the business does not exist', async () => {
    const viewer = await createPerson(tenant, { businessRole: 'viewer' });
    const manager = await createPerson(tenant, { permissions: ['businesses:manage'] });
    const workspaceOnly = await createPerson(tenant, { permissions: ['books:publish'] });
    const outsider = await createPerson(other, { businessRole: 'owner' });
    for (const reader of [viewer, manager]) {
      expect((await funnel(tenant, reader)).body.data.funnel.total).toEqual(expectedTotal());
      expect((await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: reader.token })).status).toBe(200);
    }
    for (const stranger of [workspaceOnly, outsider]) {
      const res = await funnel(tenant, stranger);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: stranger.token })).status).toBe(404);
    }
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/funnel`)).status).toBe(401);
  });

  it('refuses what it does not take: more than 52 weeks, an environment', async () => {
    for (const query of ['?weeks=53', '?weeks=0', '?weeks=two', '?environment=test']) {
      const res = await funnel(tenant, owner, query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect((await funnel(tenant, owner, '?weeks=52')).body.data.funnel.weeks).toHaveLength(52);
  });
});
