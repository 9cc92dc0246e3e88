import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createPerson, createTenant, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * What each business role can do through the API (docs/operations.md, "Who can do what"):
 * every member lists and traces the business's quotes and reads the book they came from; only
 * the owner of a self-run business sets its branding and publishing safeguard (spec 4.2).
 */
describe('business roles', () => {
  let tenant: Tenant;
  let other: Tenant;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let outsider: Person;
  let workspaceReader: Person;
  let quoteIds: string[];

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    [owner, editor, viewer, outsider, workspaceReader] = await Promise.all([
      createPerson(tenant, { businessRole: 'owner' }),
      createPerson(tenant, { businessRole: 'editor' }),
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(other, { businessRole: 'owner' }),
      createPerson(tenant, { permissions: [] }),
    ]);
    quoteIds = [];
    for (const storeys of ['1', '2', null]) {
      const res = await api('POST', '/v1/public_quotes', {
        body: { businessId: tenant.businessId, ...demoExample, factors: { ...demoExample.factors, storeys } },
      });
      quoteIds.push(res.body.data.quoteIntent.id);
    }
    await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample } });
  });

  it('names whom to ask for more: the admins of the business\'s workspace (every workspace permission), to members and workspace members alike', async () => {
    const [admin] = await Promise.all([
      createPerson(tenant, { permissions: 'all' }),
      createPerson(tenant, { permissions: ['books:edit', 'books:publish', 'logs:read'] }), // not an admin: some permissions only
      createPerson(other, { permissions: 'all' }), // another workspace's admin
    ]);
    const asViewer = await api('GET', '/v1/businesses', { key: viewer.token });
    expect(asViewer.status).toBe(200);
    const business = asViewer.body.data.businesses.find((b: { id: string }) => b.id === tenant.businessId);
    expect(business.workspaceAdmins).toEqual([{ name: 'Test Person', email: admin.email }]);
    const asReader = await api('GET', '/v1/workspaces', { key: workspaceReader.token });
    expect(asReader.body.data.workspaces.map((w: { id: string; admins: unknown }) => [w.id, w.admins])).toEqual([
      [tenant.workspaceId, [{ name: 'Test Person', email: admin.email }]],
    ]);
  });

  it('lists the business\'s Live quotes for every member, newest first, one page at a time; Test ones only to its workspace (spec 9)', async () => {
    for (const person of [owner, editor, viewer]) {
      const res = await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: person.token });
      expect(res.status).toBe(200);
      expect(res.body.data.quotes.map((q: { id: string }) => q.id)).toEqual([...quoteIds].reverse());
    }
    const live = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token })).body.data.quotes;
    expect(live[0]).toMatchObject({ environment: 'live', status: 'requires_input', offeringId: 'window_cleaning', offeringLabel: 'Window cleaning', totalMinor: null, source: 'hosted' });
    expect(live[1]).toMatchObject({ status: 'succeeded', offeringLabel: 'Window cleaning', totalMinor: 15525, currency: 'USD', bookVersionNumber: 1 });
    const priced = (await api('GET', `/v1/businesses/${tenant.businessId}/quotes?status=succeeded`, { key: viewer.token })).body.data.quotes;
    expect(priced.map((q: { id: string }) => q.id)).toEqual([quoteIds[1], quoteIds[0]]);

    // A member route has no parameter that switches environment: `environment` is an unknown field.
    for (const environment of ['test', 'live']) {
      const switched = await api('GET', `/v1/businesses/${tenant.businessId}/quotes?environment=${environment}`, { key: owner.token });
      expect(switched.status).toBe(400);
      expect(switched.body.error).toMatchObject({ code: 'invalid_request', details: { fields: { environment: ['is not an allowed field'] } } });
    }

    // The workspace sees Test and Live (GET /v1/quote-intents); business members who are not in it do not.
    const all = (await api('GET', `/v1/quote-intents?businessId=${tenant.businessId}`, { key: workspaceReader.token })).body.data.quotes;
    expect(all).toHaveLength(4);
    expect(all[0]).toMatchObject({ environment: 'test', source: 'api' });
    const test = (await api('GET', `/v1/quote-intents?businessId=${tenant.businessId}&environment=test`, { key: workspaceReader.token })).body.data.quotes;
    expect(test.map((q: { id: string }) => q.id)).toEqual([all[0].id]);
    const refused = async (person: Person) => {
      const res = await api('GET', `/v1/quote-intents?businessId=${tenant.businessId}&environment=test`, { key: person.token });
      return [res.status, res.body.error?.code];
    };
    for (const member of [owner, outsider]) expect(await refused(member)).toEqual([403, 'forbidden']); // in no workspace
    expect(await refused(await createPerson(other, { permissions: 'all' }))).toEqual([404, 'not_found']);

    const first = await api('GET', `/v1/businesses/${tenant.businessId}/quotes?limit=2`, { key: owner.token });
    const second = await api('GET', `/v1/businesses/${tenant.businessId}/quotes?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, { key: owner.token });
    expect([...first.body.data.quotes, ...second.body.data.quotes].map((q: { id: string }) => q.id)).toEqual(live.map((q: { id: string }) => q.id));
    expect(second.body.data.nextCursor).toBeNull();
  });

  it('gives the business its overview: quotes per day by outcome, API and webhook health, set-up steps', async () => {
    const res = await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: viewer.token });
    expect(res.status).toBe(200);
    const overview = res.body.data.overview;
    expect(overview.quotesPerDay).toHaveLength(14);
    expect(overview.quotesPerDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), succeeded: 2, requiresInput: 1, failed: 0 });
    expect(overview.quotesPerDay.slice(0, -1).every((d: { succeeded: number }) => d.succeeded === 0)).toBe(true);
    expect(overview.apiCalls.total).toBeGreaterThanOrEqual(4); // three public quotes and one with the Test key
    expect(overview.webhooks).toEqual({ attempts: 0, succeeded: 0, successRate: null });
    expect(overview.checklist).toEqual({ bookPublished: true, apiKeyCreated: true, quoteMade: true, endpointAdded: false });
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/overview`, { key: outsider.token })).status).toBe(404);
  });

  it('never shows the quotes to people outside the business', async () => {
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: outsider.token })).status).toBe(404);
    // In the workspace, but neither a member of the business nor allowed to manage businesses.
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/quotes`, { key: workspaceReader.token })).status).toBe(404);
  });

  it('lets the business\'s members trace its quotes and read the version that priced them, and nothing more', async () => {
    const trace = await api('GET', `/v1/quote-intents/${quoteIds[1]}/trace`, { key: viewer.token });
    expect(trace.status).toBe(200);
    expect(trace.body.data.quoteReceipt.computation.totalMinor).toBe(15525);
    const version = await api('GET', `/v1/books/${tenant.bookId}/versions/${tenant.versionId}`, { key: viewer.token });
    expect(version.status).toBe(200);
    expect(version.body.data.version.number).toBe(1);

    expect((await api('GET', `/v1/quote-intents/${quoteIds[1]}/trace`, { key: outsider.token })).status).toBe(404);
    expect((await api('GET', `/v1/books/${tenant.bookId}/versions/${tenant.versionId}`, { key: outsider.token })).status).toBe(404);
    // Reading is not editing: the draft, versions and publications stay with the workspace. The
    // book exists for them (they read it), so the refusal says why (403), never "does not exist".
    for (const person of [owner, viewer]) {
      for (const [method, path, body] of [
        ['PUT', `/v1/books/${tenant.bookId}/draft`, { artifact: {} }],
        ['POST', `/v1/books/${tenant.bookId}/impact`, {}],
        ['POST', `/v1/books/${tenant.bookId}/versions`, {}],
        ['POST', `/v1/books/${tenant.bookId}/publications`, {}],
      ] as const) {
        const refused = await api(method, path, { key: person.token, body });
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error.code).toBe('forbidden');
        expect(refused.body.error.message).not.toMatch(/does not exist/);
      }
    }
    // Someone who cannot read the book still learns nothing of it.
    expect((await api('POST', `/v1/books/${tenant.bookId}/impact`, { key: outsider.token, body: {} })).status).toBe(404);
  });

  it('lets only the owner of a self-run business set its branding and publishing safeguard (spec 4.2)', async () => {
    const branding = { displayName: 'Edited by the owner', logoUrl: null, primaryColor: '#123456', accentColor: '#654321' };
    for (const person of [editor, viewer]) {
      const refused = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: person.token, body: branding });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe(
        'The branding can be set by workspace members with "businesses:manage", or by the owner of a self-run business.',
      );
      // The right comes before the body: a bad body from someone without it is still 403.
      const badBody = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: person.token, body: { displayName: 7 } });
      expect(badBody.status).toBe(403);
    }
    expect((await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: branding })).status).toBe(200);
    expect((await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { displayName: 7 } })).status).toBe(400);
    const guard = { changePercent: 5, sharePercent: 5 };
    const editorGuard = await api('PUT', `/v1/businesses/${tenant.businessId}/publish-guard`, { key: editor.token, body: guard });
    expect(editorGuard.status).toBe(403);
    expect(editorGuard.body.error.message).toBe(
      'The publishing safeguard can be set by workspace members with "businesses:manage", or by the owner of a self-run business.',
    );
    expect((await api('PUT', `/v1/businesses/${tenant.businessId}/publish-guard`, { key: owner.token, body: guard })).status).toBe(200);
  });
});
