import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createPerson, createTenant, type Person, type Tenant } from '../../lib/testing/factories';

const answers = {
  small: { offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } },
  medium: { offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } },
};

/** The demo book with the larger-home surcharge at `basisPoints`. */
function withLargeHomeSurcharge(basisPoints: number) {
  const artifact = structuredClone(demoBookArtifact);
  (artifact.rules[1] as { adjustment: { basisPoints: number } }).adjustment.basisPoints = basisPoints;
  return artifact;
}

describe('publishing with the safeguard and its audit record', () => {
  let tenant: Tenant;
  let publisher: Person;
  let owner: Person;
  let viewer: Person;
  let v2: { id: string; number: number };
  let v3: { id: string; number: number };

  const publish = (body: Record<string, unknown>) => api('POST', `/v1/books/${tenant.bookId}/publications`, { key: publisher.token, body });
  const records = async () => (await api('GET', `/v1/books/${tenant.bookId}/publications`, { key: publisher.token })).body.data.publications;
  const newVersion = async (artifact: unknown) => {
    const res = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: publisher.token, body: { artifact } });
    expect(res.status).toBe(201);
    return res.body.data.version as { id: string; number: number };
  };

  beforeAll(async () => {
    tenant = await createTenant();
    [publisher, owner, viewer] = await Promise.all([
      createPerson(tenant, { permissions: ['books:edit', 'books:publish'] }),
      createPerson(tenant, { permissions: ['businesses:manage'] }),
      createPerson(tenant, { businessRole: 'viewer' }),
    ]);
    // Ten Live quotes: three of them (30%) for a medium home, which a 40% surcharge moves by +12%.
    for (const inputs of [...Array(7).fill(answers.small), ...Array(3).fill(answers.medium)]) {
      const res = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...inputs } });
      expect(res.status).toBe(201);
    }
    v2 = await newVersion(withLargeHomeSurcharge(4000));
  });

  it('asks for the typed phrase on Live when too many quotes would change, and publishes nothing until it comes', async () => {
    const refused = await publish({ versionId: v2.id, environment: 'live' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.message).toBe(
      'Publishing v2 to Live would change 30% of the last 7 days\' quotes by more than 10% (the safeguard asks above 10%). Send confirmation "publish v2" to publish it.',
    );
    expect(refused.body.error.details).toMatchObject({
      fields: { confirmation: ['type "publish v2" to publish'] },
      confirmationPhrase: 'publish v2',
      impact: { quotes: 10, requests: 2, counts: { unchanged: 7, higher: 3 }, guard: { significantlyChangedQuotes: 3, requiresConfirmation: true } },
    });
    const wrong = await publish({ versionId: v2.id, environment: 'live', confirmation: 'publish v3' });
    expect(wrong.status).toBe(400);
    const book = await api('GET', `/v1/books/${tenant.bookId}`, { key: publisher.token });
    expect(book.body.data.book.publications.live.number).toBe(1);
  });

  it('publishes with the phrase and keeps the impact that was shown, who published, and what they typed', async () => {
    const shown = await api('POST', `/v1/books/${tenant.bookId}/impact`, { key: publisher.token, body: { versionId: v2.id, window: '7d' } });
    const impact = shown.body.data.impact;
    const published = await publish({ versionId: v2.id, environment: 'live', impactAsOf: impact.window.to, confirmation: '  Publish  V2 ' });
    expect(published.status).toBe(200);
    expect(published.body.data.book.publications.live.number).toBe(2);

    const [record] = await records();
    const { environment, window, candidate, baselineVersions, requests, quotes, counts, histogram, guard } = impact;
    expect(record).toEqual({
      id: expect.any(String),
      environment: 'live',
      version: { id: v2.id, number: 2 },
      previousVersion: { id: tenant.versionId, number: 1 },
      publishedBy: publisher.email,
      publishedAt: expect.any(String),
      impact: { environment, window, candidate, baselineVersions, requests, quotes, counts, histogram, guard },
      confirmation: 'Publish  V2',
    });
  });

  it('never asks on Test, and records publications made by the system without an impact', async () => {
    v3 = await newVersion(withLargeHomeSurcharge(9000));
    const res = await publish({ versionId: v3.id, environment: 'test' });
    expect(res.status).toBe(200);
    const all = await records();
    expect(all[0]).toMatchObject({ environment: 'test', version: { number: 3 }, previousVersion: { number: 1 }, confirmation: null });
    expect(all[0].impact.quotes).toBe(0); // no Test quotes in the window
    // provisioning published v1 to both environments
    expect(all.slice(-2).map((r: { publishedBy: string | null; impact: unknown; previousVersion: unknown }) => [r.publishedBy, r.impact, r.previousVersion])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    // anyone in the workspace can read the history, one page at a time
    const page = await api('GET', `/v1/books/${tenant.bookId}/publications?limit=2`, { key: owner.token });
    expect(page.body.data.publications).toHaveLength(2);
    const next = await api('GET', `/v1/books/${tenant.bookId}/publications?limit=2&cursor=${encodeURIComponent(page.body.data.nextCursor)}`, { key: owner.token });
    expect(next.body.data.publications.map((r: { id: string }) => r.id)).toEqual(all.slice(2, 4).map((r: { id: string }) => r.id));
  });

  it('follows the business\'s own thresholds, which only its managers set', async () => {
    const body = { changePercent: 10, sharePercent: 50 };
    expect((await api('PUT', `/v1/businesses/${tenant.businessId}/publish-guard`, { key: viewer.token, body })).status).toBe(403);
    const set = await api('PUT', `/v1/businesses/${tenant.businessId}/publish-guard`, { key: owner.token, body });
    expect(set.status).toBe(200);
    expect(set.body.data.business.publishGuard).toEqual(body);
    // v3 (a 90% surcharge) moves the three medium-home quotes, as priced by v1, by 52%: 30% of the quotes, under the new 50%.
    const published = await publish({ versionId: v3.id, environment: 'live' });
    expect(published.status).toBe(200);
    const [record] = await records();
    expect(record).toMatchObject({ environment: 'live', version: { number: 3 }, previousVersion: { number: 2 }, confirmation: null });
    expect(record.impact.guard).toMatchObject({ sharePercent: 50, significantlyChangedPercent: 30, requiresConfirmation: false });
  });

  it('refuses figures older than 15 minutes', async () => {
    const res = await publish({ versionId: v2.id, environment: 'live', impactAsOf: new Date(Date.now() - 16 * 60_000).toISOString() });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.impactAsOf).toEqual(['must be within the last 15 minutes']);
  });
});
