import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import { canonicalHash } from '../../lib/hash/canonical-hash';
import { storedBookArtifactSchema } from '../../lib/pricing';
import { api } from '../support/api-client';
import { quoteRequest, createPerson, createTenant, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';

describe('book authoring and publication (workspace session)', () => {
  let tenant: Tenant;
  let publisher: Person;
  let editorOnly: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
    editorOnly = await createPerson(tenant, { permissions: ['books:edit'] });
  });

  it('lists books with what is published where', async () => {
    const res = await api('GET', `/v1/books?projectId=${tenant.projectId}`, { key: publisher.token });
    expect(res.status).toBe(200);
    expect(res.body.data.books).toEqual([
      expect.objectContaining({
        id: tenant.bookId,
        isPrimary: true,
        latestVersion: 1,
        publications: {
          test: expect.objectContaining({ versionId: tenant.versionId, number: 1 }),
          live: expect.objectContaining({ versionId: tenant.versionId, number: 1 }),
        },
      }),
    ]);
  });

  it('saves drafts with issues in place, previews them, then versions and publishes; the public price follows', async () => {
    const broken = { ...demoBookArtifact, currency: 'dollars', rules: [{ id: 'r', phase: 'discount', label: 'x' }] };
    const saved = await api('PUT', `/v1/books/${tenant.bookId}/draft`, { key: editorOnly.token, body: { artifact: broken } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.valid).toBe(false);
    expect(Object.keys(saved.body.data.issues)).toEqual(expect.arrayContaining(['currency', 'rules.0.reduction']));
    expect(saved.body.data.issues.currency).toEqual(['must be an ISO 4217 currency code such as USD or EUR']);

    const preview = await api('POST', `/v1/books/${tenant.bookId}/preview`, {
      key: editorOnly.token,
      body: { offeringId: demoExample.offeringId, factors: demoExample.factors },
    });
    expect(preview.body.data).toMatchObject({ valid: false, outcome: null });

    const cheaper = structuredClone(demoBookArtifact);
    cheaper.offerings[0].basePriceMinor = 8000;
    await api('PUT', `/v1/books/${tenant.bookId}/draft`, { key: editorOnly.token, body: { artifact: cheaper } });
    const priced = await api('POST', `/v1/books/${tenant.bookId}/preview`, {
      key: editorOnly.token,
      body: { offeringId: demoExample.offeringId, factors: demoExample.factors },
    });
    expect(priced.body.data).toMatchObject({ valid: true, outcome: 'succeeded' });
    expect(priced.body.data.computation.totalMinor).toBe(10350); // 8000 -> +2000 -> +1500 -> -1150

    // editing is not publishing
    const refused = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: editorOnly.token });
    expect(refused.status).toBe(403);

    const hasDraft = async () => (await api('GET', `/v1/books/${tenant.bookId}`, { key: publisher.token })).body.data.book.hasDraft;
    expect(await hasDraft()).toBe(true);
    const version = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: publisher.token });
    expect(version.status).toBe(201);
    expect(version.body.data.version).toMatchObject({ number: 2, createdBy: publisher.email });
    expect(version.body.data.version.artifactHash).toMatch(/^[0-9a-f]{64}$/);
    // The draft became v2 unchanged: the book no longer "has a draft", until it differs again.
    expect(await hasDraft()).toBe(false);
    const books = (await api('GET', '/v1/books', { key: publisher.token })).body.data.books;
    expect(books.find((b: { id: string }) => b.id === tenant.bookId).hasDraft).toBe(false);

    const publicBefore = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    expect(publicBefore.body.data.quoteReceipt.computation.totalMinor).toBe(15525);

    // The one Live quote so far would drop by a third: the safeguard asks for the phrase first.
    const unconfirmed = await api('POST', `/v1/books/${tenant.bookId}/publications`, {
      key: publisher.token,
      body: { versionId: version.body.data.version.id, environment: 'live' },
    });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.details.confirmationPhrase).toBe('publish v2');
    const published = await api('POST', `/v1/books/${tenant.bookId}/publications`, {
      key: publisher.token,
      body: { versionId: version.body.data.version.id, environment: 'live', confirmation: 'publish v2' },
    });
    expect(published.status).toBe(200);
    expect(published.body.data.book.publications.live.number).toBe(2);
    expect(published.body.data.book.publications.test.number).toBe(1);

    const publicAfter = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    expect(publicAfter.body.data.quoteIntent.bookVersionId).toBe(version.body.data.version.id);
    expect(publicAfter.body.data.quoteReceipt.computation.totalMinor).toBe(10350);
    const testQuote = await api('POST', '/v1/quotes', {
      key: tenant.keys.test,
      body: quoteRequest(tenant),
    });
    expect(testQuote.body.data.quoteReceipt.computation.totalMinor).toBe(15525);
  });

  it('refuses to version an invalid artifact, with the problems by field', async () => {
    const res = await api('POST', `/v1/books/${tenant.bookId}/versions`, {
      key: publisher.token,
      body: { artifact: { ...demoBookArtifact, offerings: [] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.fields['offerings']).toBeDefined();
    // three capital letters are not enough: the code must be in ISO 4217
    const madeUp = await api('POST', `/v1/books/${tenant.bookId}/versions`, {
      key: publisher.token,
      body: { artifact: { ...demoBookArtifact, currency: 'XXY' } },
    });
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.error.details.fields).toEqual({ currency: ['must be an ISO 4217 currency code such as USD or EUR'] });
  });

  it('still prices with a version stored before currencies were checked against ISO 4217', async () => {
    const own = await createTenant();
    const artifact = storedBookArtifactSchema.parse({ ...demoBookArtifact, currency: 'ABC' });
    const legacy = await testDb().bookVersion.create({
      data: { bookId: own.bookId, number: 2, artifact, artifactHash: canonicalHash(artifact), createdAt: new Date() },
    });
    await publishBookVersion(testContext(testDb()), { bookId: own.bookId, versionId: legacy.id, environment: 'test' });
    const quote = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own) });
    expect(quote.status).toBe(201);
    expect(quote.body.data.quoteReceipt).toMatchObject({ outcome: 'succeeded', bookVersionId: legacy.id, computation: { currency: 'ABC' } });
  });

  it('numbers versions created at the same moment one after the other', async () => {
    const own = await createTenant();
    const person = await createPerson(own, { permissions: ['books:publish'] });
    const created = await Promise.all(
      Array.from({ length: 4 }, () => api('POST', `/v1/books/${own.bookId}/versions`, { key: person.token, body: { artifact: demoBookArtifact } })),
    );
    expect(created.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    expect(created.map((res) => res.body.data.version.number).sort()).toEqual([2, 3, 4, 5]);
  });

  it('shows a version with its artifact, and its history', async () => {
    const book = await api('GET', `/v1/books/${tenant.bookId}`, { key: editorOnly.token });
    expect(book.body.data.book.versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    const v1 = await api('GET', `/v1/books/${tenant.bookId}/versions/${tenant.versionId}`, { key: editorOnly.token });
    expect(v1.body.data.version.artifact.offerings[0].basePriceMinor).toBe(12000);
  });

  it('creates books for editors, refuses duplicates, hides other workspaces', async () => {
    const created = await api('POST', '/v1/books', {
      key: editorOnly.token,
      body: { projectId: tenant.projectId, key: 'seasonal-offers', name: 'Seasonal offers' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.book).toMatchObject({ key: 'seasonal-offers', latestVersion: null, isPrimary: false, versions: [] });
    const again = await api('POST', '/v1/books', {
      key: editorOnly.token,
      body: { projectId: tenant.projectId, key: 'seasonal-offers', name: 'Again' },
    });
    expect(again.status).toBe(409);
    const outsider = await createPerson(await createTenant(), { permissions: 'all' });
    expect((await api('GET', `/v1/books/${tenant.bookId}`, { key: outsider.token })).status).toBe(404);
    expect((await api('PUT', `/v1/books/${tenant.bookId}/draft`, { key: outsider.token, body: { artifact: {} } })).status).toBe(404);
    expect((await api('GET', '/v1/books', { key: outsider.token })).body.data.books.map((b: { id: string }) => b.id)).not.toContain(tenant.bookId);
  });
});
