import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { createPerson, createTenant, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Spec 9: member routes use the business's Live connection; no parameter switches them to Test.
 * An integration's held Test quotes are reviewed on the workspace route /v1/account-quotes, by
 * workspace members with `businesses:manage`; a business's owner reviews its Live quotes only.
 */
const siteVisit = { service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } };

describe('reviewing held Test quotes', () => {
  let tenant: Tenant;
  let other: Tenant;
  let owner: Person;
  let manager: Person;
  let noPermission: Person;
  let otherManager: Person;
  const held = async (key: string) => {
    const res = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, { key, headers: { 'idempotency-key': randomUUID() }, body: { services: [siteVisit] } });
    expect(res.body.state).toBe('awaiting_approval');
    return res.body.quote_id as string;
  };
  const workspaceReview = (person: Person, quoteId: string, body: Record<string, unknown>) =>
    api('POST', `/v1/account-quotes/${quoteId}/review`, { key: person.token, body: { businessId: tenant.businessId, ...body } });
  const memberReview = (person: Person, quoteId: string) =>
    api('POST', `/v1/businesses/${tenant.businessId}/account-quotes/${quoteId}/review`, { key: person.token, body: { decision: 'approved' } });

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    [owner, manager, noPermission, otherManager] = await Promise.all([
      createPerson(tenant, { businessRole: 'owner' }),
      createPerson(tenant, { permissions: ['businesses:manage'] }),
      createPerson(tenant, { permissions: ['logs:read'] }),
      createPerson(other, { permissions: 'all' }),
    ]);
  });

  it('keeps Test quotes off the member routes: not listed, not found, not reviewable there, whoever asks', async () => {
    const [testQuote, liveQuote] = [await held(tenant.keys.test), await held(tenant.keys.live)];
    for (const person of [owner, manager]) {
      const listed = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes`, { key: person.token });
      expect(listed.status).toBe(200);
      const ids = listed.body.data.quotes.map((q: { id: string }) => q.id);
      expect(ids).toContain(liveQuote);
      expect(ids).not.toContain(testQuote);
      expect((await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes/${testQuote}`, { key: person.token })).status).toBe(404);
      const reviewed = await memberReview(person, testQuote);
      expect(reviewed.status).toBe(404);
      expect(reviewed.body.error.code).toBe('not_found');
      const switched = await api('GET', `/v1/businesses/${tenant.businessId}/account-quotes?environment=test`, { key: person.token });
      expect(switched.status).toBe(400);
      expect(switched.body.error).toMatchObject({ code: 'invalid_request', details: { fields: { environment: ['is not an allowed field'] } } });
    }
    expect((await testDb().accountQuote.findUniqueOrThrow({ where: { id: testQuote } })).reviewDecision).toBeNull();
    // The owner still reviews the Live one where it always was.
    expect((await memberReview(owner, liveQuote)).status).toBe(200);
  });

  it('lets a workspace member with businesses:manage list and approve a held Test quote on the workspace route; its event is a Test event', async () => {
    const testQuote = await held(tenant.keys.test);
    const inbox = await api('GET', `/v1/account-quotes?businessId=${tenant.businessId}&environment=test&state=awaiting_approval&review=pending`, { key: manager.token });
    expect(inbox.status).toBe(200);
    expect(inbox.body.data.quotes.map((q: { id: string; environment: string }) => [q.id, q.environment])).toContainEqual([testQuote, 'test']);

    const approved = await workspaceReview(manager, testQuote, { decision: 'approved' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data.quote).toMatchObject({ id: testQuote, environment: 'test', state: 'quoted', review: { decision: 'approved' } });
    const again = await workspaceReview(manager, testQuote, { decision: 'declined', reason: 'Changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_reviewed');
    const event = await testDb().outboxEvent.findFirstOrThrow({ where: { subjectId: testQuote, type: 'account_quote.approved' } });
    expect(event.environmentId).toBe(tenant.environments.test);
    expect(event.businessId).toBe(tenant.businessId);
  });

  it('refuses everyone else: the owner (Live only), a member without the permission, another workspace; and a body with unknown fields', async () => {
    const testQuote = await held(tenant.keys.test);
    for (const person of [owner, noPermission]) {
      const listed = await api('GET', `/v1/account-quotes?businessId=${tenant.businessId}&environment=test`, { key: person.token });
      expect([listed.status, listed.body.error.code]).toEqual([403, 'forbidden']);
      const reviewed = await workspaceReview(person, testQuote, { decision: 'approved' });
      expect([reviewed.status, reviewed.body.error.code]).toEqual([403, 'forbidden']);
    }
    const foreign = await workspaceReview(otherManager, testQuote, { decision: 'approved' });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    expect((await api('GET', `/v1/account-quotes?businessId=${tenant.businessId}&environment=test`, { key: otherManager.token })).status).toBe(404);
    // Their own business does not reach this quote either.
    const viaOwnBusiness = await api('POST', `/v1/account-quotes/${testQuote}/review`, { key: otherManager.token, body: { businessId: other.businessId, decision: 'approved' } });
    expect([viaOwnBusiness.status, viaOwnBusiness.body.error.code]).toEqual([404, 'not_found']);
    const unknown = await workspaceReview(manager, testQuote, { decision: 'approved', environment: 'live' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toEqual({ environment: ['is not an allowed field'] });
    expect((await testDb().accountQuote.findUniqueOrThrow({ where: { id: testQuote } })).reviewDecision).toBeNull();
  });
});
