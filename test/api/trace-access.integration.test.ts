import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Who may trace a quote (GET /v1/quote-intents/{id}/trace): the members of the quote's business
 * and the active members of its workspace, with or without permissions; nobody else learns that
 * the quote exists (404). The workspace membership is read with the business's when the business
 * is in the quote's workspace, and on its own otherwise.
 */
describe('tracing a quote: who may', () => {
  let tenant: Tenant;
  let other: Tenant;
  let quoteId: string;

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    const created = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    expect(created.status).toBe(201);
    quoteId = created.body.data.quoteIntent.id;
  });

  const trace = async (person: Person) => {
    const res = await api('GET', `/v1/quote-intents/${quoteId}/trace`, { key: person.token });
    return res.status === 200 ? [200, res.body.data.quoteIntent.id] : [res.status, res.body.error.code];
  };

  it('lets the business members and every active workspace member trace it', async () => {
    const people = await Promise.all([
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(tenant, { permissions: 'all' }),
      createPerson(tenant, { permissions: [] }),
    ]);
    for (const person of people) expect(await trace(person)).toEqual([200, quoteId]);
  });

  it('answers 404 to everyone else: another workspace, another business, a removed member', async () => {
    const removed = await createPerson(tenant, { permissions: 'all' });
    await testDb().workspaceMember.updateMany({ where: { workspaceId: tenant.workspaceId, userId: removed.userId }, data: { status: 'removed' } });
    const people = await Promise.all([createPerson(other, { permissions: 'all' }), createPerson(other, { businessRole: 'owner' }), createPerson(tenant)]);
    for (const person of [...people, removed]) expect(await trace(person)).toEqual([404, 'not_found']);
  });
});
