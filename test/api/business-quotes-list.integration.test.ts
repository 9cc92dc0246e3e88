import { describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';

/**
 * The Quotes list names each quote's offering as the version that priced it names it, whatever
 * became of the quote: priced, needing answers, or priced at a base override (whose first line
 * reads "Window cleaning (Commercial …)"). No offering, or one the book lacks, is null.
 */
describe('GET /v1/businesses/{id}/quotes: offering names and prices', () => {
  it('names the offering of every quote from its version, and none where there is none', async () => {
    const tenant = await createTenant();
    const viewer = await createPerson(tenant, { businessRole: 'viewer' });
    const asked = [
      { offeringId: 'window_cleaning', factors: demoExample.factors }, // priced
      { offeringId: 'window_cleaning', factors: { home_size: 'medium' } }, // needs more answers
      { offeringId: 'window_cleaning', factors: { ...demoExample.factors, site_type: 'commercial' } }, // base override
      { offeringId: '', factors: {} }, // no service chosen
      { offeringId: 'roof_repair', factors: {} }, // not in the book: failed
    ];
    for (const body of asked) {
      const res = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...body } });
      expect(res.status).toBe(201);
    }
    const res = await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token });
    expect(res.status).toBe(200);
    const oldestFirst = [...res.body.data.quotes].reverse();
    expect(oldestFirst.map((q: { status: string; offeringId: string; offeringLabel: string | null }) => [q.status, q.offeringId, q.offeringLabel])).toEqual([
      ['succeeded', 'window_cleaning', 'Window cleaning'],
      ['requires_input', 'window_cleaning', 'Window cleaning'],
      ['succeeded', 'window_cleaning', 'Window cleaning'],
      ['requires_input', '', null],
      ['failed', 'roof_repair', null],
    ]);
    // The version id that named them stays inside.
    expect(Object.keys(oldestFirst[0])).not.toContain('bookVersionId');
  });

  it('lists each priced quote\'s total and currency as its receipt has them, also for quotes made before the intent kept a copy', async () => {
    const tenant = await createTenant();
    const viewer = await createPerson(tenant, { businessRole: 'viewer' });
    for (const factors of [demoExample.factors, { ...demoExample.factors, site_type: 'commercial' }, { home_size: 'medium' }]) {
      expect((await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors } })).status).toBe(201);
    }
    const receipts = await testDb().$queryRaw<{ id: string; totalMinor: number | null; currency: string | null }[]>`
      SELECT qi.id::text AS id, (r.computation->>'totalMinor')::float8 AS "totalMinor", r.computation->>'currency' AS currency
        FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id WHERE qi.business_id = ${tenant.businessId}::uuid`;
    const expected = Object.fromEntries(receipts.map((r) => [r.id, [r.totalMinor, r.currency]]));
    expect(receipts.filter((r) => r.totalMinor !== null)).toHaveLength(2);
    const listed = async () => {
      const res = await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token });
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.data.quotes.map((q: { id: string; totalMinor: number | null; currency: string | null }) => [q.id, [q.totalMinor, q.currency]]));
    };
    expect(await listed()).toEqual(expected);
    // Quotes made before 2 December carry their price on the receipt only.
    await testDb().$executeRaw`UPDATE quote_intents SET total_minor = NULL, currency = NULL WHERE business_id = ${tenant.businessId}::uuid`;
    expect(await listed()).toEqual(expected);
  });
});
