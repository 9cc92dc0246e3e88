import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { addWorkspaceMember } from '../../lib/members/add-members';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/** The demo book's version 2: a bigger "Larger home" surcharge, a welcome discount, no storeys surcharge. */
const version2 = {
  ...demoBookArtifact,
  rules: [
    ...demoBookArtifact.rules
      .filter((r) => r.id !== 'tall_building')
      .map((r) => (r.id === 'large_home' ? { ...r, adjustment: { type: 'percent', basisPoints: 3000 } } : r)),
    { id: 'welcome', phase: 'discount', label: 'Welcome discount', reduction: { type: 'fixed', amountMinor: 500 } },
  ],
};
const otherAnswers = { offeringId: 'window_cleaning', factors: { home_size: 'large', storeys: '3', frequency: 'monthly', access: 'easy' } };

describe('GET /v1/quote-intents/{id}/comparison', () => {
  let tenant: Tenant;
  let owner: Person;
  /** Test quotes of the demo business: the demo answers, other answers (both v1), the demo answers on v2. */
  const ids = { a: '', b: '', c: '' };

  const quote = async (body: unknown) => {
    const res = await api('POST', '/v1/quotes', { key: tenant.keys.test, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data.quoteIntent.id as string;
  };
  const compare = (id: string, withId: string, key: string) => api('GET', `/v1/quote-intents/${id}/comparison?with=${withId}`, { key });

  beforeAll(async () => {
    tenant = await createTenant();
    owner = await createPerson(tenant, { permissions: 'all', businessRole: 'owner' });
    ids.a = await quote(quoteRequest(tenant));
    ids.b = await quote(quoteRequest(tenant, otherAnswers));
    const version = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: owner.token, body: { artifact: version2 } });
    expect(version.status, version.text).toBe(201);
    const published = await api('POST', `/v1/books/${tenant.bookId}/publications`, {
      key: owner.token,
      body: { versionId: version.body.data.version.id, environment: 'test' },
    });
    expect(published.status, published.text).toBe(200);
    ids.c = await quote(quoteRequest(tenant));
  });

  it('explains two quotes with different answers, reconciling to the difference of the totals (session as Bearer)', async () => {
    const res = await compare(ids.a, ids.b, owner.token);
    expect(res.status, res.text).toBe(200);
    const comparison = res.body.data;
    expect(comparison).toMatchObject({
      businessId: tenant.businessId,
      a: { quoteIntentId: ids.a, environment: 'test', outcome: 'succeeded', totalMinor: 15525, currency: 'USD', bookVersion: { id: tenant.versionId, number: 1 } },
      b: { quoteIntentId: ids.b, totalMinor: 17550, bookVersion: { id: tenant.versionId, number: 1 } },
      bookVersion: { same: true, sameBook: true, changes: null },
      reconciliation: { currency: 'USD', totalAMinor: 15525, totalBMinor: 17550, differenceMinor: 2025, explainedMinor: 2025 },
      notReconciled: null,
    });
    expect(comparison.answers.map((a: { factorId: string }) => a.factorId)).toEqual(['home_size', 'storeys', 'access']);
    const steps = comparison.phases.flatMap((p: { steps: { ruleId: string; deltaChangeMinor: number }[] }) => p.steps);
    expect(steps.map((s: { ruleId: string }) => s.ruleId)).toEqual(['tall_building', 'difficult_access', 'recurring_discount']);
    expect(steps.reduce((sum: number, s: { deltaChangeMinor: number }) => sum + s.deltaChangeMinor, 0)).toBe(2025);
    expect(comparison.summary[0]).toBe('B comes to $175.50, $20.25 more than A ($155.25).');
    expect(comparison.a.derivation.filter((d: { differs: boolean }) => d.differs)).toHaveLength(3);

    // The other way round, every difference changes sign.
    const reversed = (await compare(ids.b, ids.a, owner.token)).body.data;
    expect(reversed.reconciliation).toMatchObject({ differenceMinor: -2025, explainedMinor: -2025 });
  });

  it('explains two quotes across a newly published version, from the version diff', async () => {
    const res = await compare(ids.a, ids.c, owner.token);
    expect(res.status, res.text).toBe(200);
    const comparison = res.body.data;
    expect(comparison.answers).toEqual([]);
    expect(comparison.bookVersion.same).toBe(false);
    expect(comparison.b.bookVersion.number).toBe(2);
    expect(comparison.bookVersion.changes.entities.map((e: { id: string; change: string }) => `${e.change} ${e.id}`).sort()).toEqual([
      'added welcome',
      'changed large_home',
      'removed tall_building',
    ]);
    expect(comparison.reconciliation).toEqual({ currency: 'USD', totalAMinor: 15525, totalBMinor: 15646, differenceMinor: 121, explainedMinor: 121 });
    expect(comparison.summary).toContain(
      'A was priced with version 1 of the book and B with version 2: rule “Larger home” changed, rule “Welcome discount” added and rule “Three or more storeys” removed.',
    );
  });

  it('answers an API key of the quotes\' environment, and 404 to a key of the other environment', async () => {
    const byKey = await compare(ids.a, ids.c, tenant.keys.test);
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.body.data.reconciliation.explainedMinor).toBe(121);
    const live = await compare(ids.a, ids.c, tenant.keys.live);
    expect(live.status).toBe(404);
    expect(live.body.error).toMatchObject({ code: 'not_found', requestId: live.headers.get('x-request-id') });
  });

  it('says plainly when a quote was not priced, and explains no steps', async () => {
    const unpriced = await quote(quoteRequest(tenant, { factors: { ...demoExample.factors, storeys: null } }));
    const res = await compare(unpriced, ids.a, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ reconciliation: null, notReconciled: 'a_not_priced', phases: [], a: { outcome: 'requires_input', derivation: [] } });
    expect(res.body.data.summary[0]).toBe('A was not priced: it still needs an answer to Storeys.');
  });

  it('refuses quotes of different businesses, a missing or malformed `with`, and quotes the caller cannot see', async () => {
    const other = await createTenant();
    const otherQuote = (await api('POST', '/v1/quotes', { key: other.keys.test, body: quoteRequest(other) })).body.data.quoteIntent.id as string;
    // The owner may trace quotes of both workspaces, but not compare across businesses.
    await addWorkspaceMember(testContext(testDb()), { workspaceId: other.workspaceId, userId: owner.userId, permissions: ['logs:read'] });
    expect((await api('GET', `/v1/quote-intents/${otherQuote}/trace`, { key: owner.token })).status).toBe(200);
    const across = await compare(ids.a, otherQuote, owner.token);
    expect(across.status).toBe(400);
    expect(across.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('different businesses'), details: { fields: { with: expect.any(Array) } } });

    const missing = await api('GET', `/v1/quote-intents/${ids.a}/comparison`, { key: owner.token });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_request', details: { fields: { with: expect.any(Array) } } });
    expect((await api('GET', `/v1/quote-intents/${ids.a}/comparison?with=nope`, { key: owner.token })).status).toBe(400);

    const outsider = await createPerson(other, { permissions: 'all' });
    expect((await compare(ids.a, ids.b, outsider.token)).status).toBe(404);
    expect((await compare(otherQuote, ids.a, outsider.token)).status).toBe(404);
    expect((await compare(ids.a, ids.b, '')).status).toBe(401);
  });
});
