import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createSession } from '../../lib/auth/sessions';
import { acceptInvitations } from '../../lib/members/invite-business-member';
import { createPerson, createTenant, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';

describe('business member routes (spec 4.1, 4.2, 5.2)', () => {
  let tenant: Tenant;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    [owner, editor, viewer] = await Promise.all([
      createPerson(tenant, { businessRole: 'owner' }),
      createPerson(tenant, { businessRole: 'editor' }),
      createPerson(tenant, { businessRole: 'viewer' }),
    ]);
  });

  const members = (p: Person, t = tenant) => api('GET', `/v1/businesses/${t.businessId}/members`, { key: p.token });

  it('lists the roster to any active member, 401 without a session, 404 to strangers', async () => {
    for (const person of [owner, editor, viewer]) {
      const res = await members(person);
      expect(res.status).toBe(200);
      expect(res.body.data.members.map((m: { role: string }) => m.role).sort()).toEqual(['editor', 'owner', 'viewer']);
    }
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/members`)).body.error.code).toBe('unauthorized');
    expect((await api('GET', `/v1/businesses/${tenant.businessId}/members`, { key: 'forged-session' })).status).toBe(401);
    const stranger = await createPerson(await createTenant(), { businessRole: 'owner' });
    expect((await members(stranger)).status).toBe(404);
  });

  it('lets only the owner change roles or remove members (403 not_business_owner)', async () => {
    const target = await createPerson(tenant, { businessRole: 'viewer' });
    for (const person of [editor, viewer]) {
      const patch = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${target.membershipId}`, {
        key: person.token,
        body: { role: 'editor' },
      });
      expect(patch.status).toBe(403);
      expect(patch.body.error.code).toBe('not_business_owner');
      const del = await api('DELETE', `/v1/businesses/${tenant.businessId}/members/${target.membershipId}`, { key: person.token });
      expect(del.body.error.code).toBe('not_business_owner');
    }
    const promoted = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${target.membershipId}`, {
      key: owner.token,
      body: { role: 'editor' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.member).toMatchObject({ id: target.membershipId, role: 'editor', status: 'active' });
    const invalid = await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${target.membershipId}`, {
      key: owner.token,
      body: { role: 'admin' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields.role).toBeDefined();
  });

  it('invites by email (owner only); the invitation becomes active when the person signs in', async () => {
    const email = `invitee-${randomUUID()}@Example.test`;
    const url = `/v1/businesses/${tenant.businessId}/members`;
    expect((await api('POST', url, { key: editor.token, body: { email, role: 'editor' } })).body.error.code).toBe('not_business_owner');
    const invited = await api('POST', url, { key: owner.token, body: { email, role: 'editor' } });
    expect(invited.status).toBe(201);
    expect(invited.body.data.member).toMatchObject({ email: email.toLowerCase(), role: 'editor', status: 'invited' });
    expect((await api('POST', url, { key: owner.token, body: { email, role: 'viewer' } })).status).toBe(409);
    expect((await api('POST', url, { key: owner.token, body: { email: 'not-an-email', role: 'viewer' } })).status).toBe(400);

    // until they sign in, an invitation grants nothing
    const invitee = invited.body.data.member.userId;
    const token = await createSession(testDb(), invitee, new Date());
    expect((await api('GET', url, { key: token })).status).toBe(404);
    await acceptInvitations(testContext(testDb()), { userId: invitee }); // what every sign-in does
    const roster = await api('GET', url, { key: token });
    expect(roster.status).toBe(200);
    expect(roster.body.data.members.find((m: { userId: string }) => m.userId === invitee).status).toBe('active');
  });

  it('cuts a removed member off at once', async () => {
    const leaving = await createPerson(tenant, { businessRole: 'editor' });
    expect((await members(leaving)).status).toBe(200);
    const removed = await api('DELETE', `/v1/businesses/${tenant.businessId}/members/${leaving.membershipId}`, { key: owner.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.member.status).toBe('removed');
    expect((await members(leaving)).status).toBe(404);
    const quote = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
      key: leaving.token,
      body: { bookId: tenant.bookId, ...demoExample },
    });
    expect(quote.status).toBe(404);
    expect(quote.body.error.code).toBe('quote_scope_not_found');
    expect((await api('DELETE', `/v1/businesses/${tenant.businessId}/members/${leaving.membershipId}`, { key: owner.token })).status).toBe(404);
  });

  it('never leaves a business without an owner', async () => {
    const own = await createTenant();
    const sole = await createPerson(own, { businessRole: 'owner' });
    const demote = await api('PATCH', `/v1/businesses/${own.businessId}/members/${sole.membershipId}`, {
      key: sole.token,
      body: { role: 'viewer' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('conflict');
    const second = await createPerson(own, { businessRole: 'owner' });
    const ok = await api('DELETE', `/v1/businesses/${own.businessId}/members/${sole.membershipId}`, { key: second.token });
    expect(ok.status).toBe(200);
    const last = await api('DELETE', `/v1/businesses/${own.businessId}/members/${second.membershipId}`, { key: second.token });
    expect(last.status).toBe(409);
  });

  it('counts active owners only: an invited owner can be demoted or removed, the last active owner cannot go', async () => {
    const own = await createTenant();
    const sole = await createPerson(own, { businessRole: 'owner' });
    const url = `/v1/businesses/${own.businessId}/members`;
    const invite = async () => {
      const res = await api('POST', url, { key: sole.token, body: { email: `owner-${randomUUID()}@example.test`, role: 'owner' } });
      expect(res.status).toBe(201);
      expect(res.body.data.member).toMatchObject({ role: 'owner', status: 'invited' });
      return res.body.data.member.id as string;
    };
    const [first, second] = [await invite(), await invite()];

    const demoted = await api('PATCH', `${url}/${first}`, { key: sole.token, body: { role: 'editor' } });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data.member).toMatchObject({ id: first, role: 'editor', status: 'invited' });
    const removed = await api('DELETE', `${url}/${second}`, { key: sole.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.member).toMatchObject({ id: second, role: 'owner', status: 'removed' });

    // a pending owner invitation does not stand in for an active owner
    await invite();
    const selfDemote = await api('PATCH', `${url}/${sole.membershipId}`, { key: sole.token, body: { role: 'editor' } });
    expect(selfDemote.status).toBe(409);
    expect(selfDemote.body.error.code).toBe('conflict');
    const selfRemove = await api('DELETE', `${url}/${sole.membershipId}`, { key: sole.token });
    expect(selfRemove.status).toBe(409);
    expect(selfRemove.body.error.code).toBe('conflict');
  });

  it('lets any active member quote on the Live environment, pinned server-side', async () => {
    for (const person of [owner, editor, viewer]) {
      const res = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
        key: person.token,
        body: { bookId: tenant.bookId, ...demoExample },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.quoteIntent).toMatchObject({
        environmentId: tenant.environments.live,
        bookVersionId: tenant.versionId,
        status: 'succeeded',
        source: 'hosted',
      });
    }
    const malformed = await api('POST', '/v1/businesses/not-a-uuid/quotes', { key: owner.token, body: { bookId: tenant.bookId, ...demoExample } });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe('quote_scope_not_found');
    const other = await createTenant();
    const wrongBook = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
      key: owner.token,
      body: { bookId: other.bookId, ...demoExample },
    });
    expect(wrongBook.body.error.code).toBe('quote_scope_not_found');
    const badBody = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
      key: owner.token,
      body: { bookId: tenant.bookId, offeringId: 'x', environment: 'test' },
    });
    expect(badBody.status).toBe(422);
    expect(badBody.body.error.code).toBe('invalid_quote_request');
    const key = `member-${randomUUID()}`;
    const body = { bookId: tenant.bookId, ...demoExample, idempotencyKey: key };
    const a = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: owner.token, body });
    const b = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: viewer.token, body });
    expect(b.body.data.quoteIntent.id).toBe(a.body.data.quoteIntent.id);
    const conflict = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
      key: owner.token,
      body: { ...body, offeringId: 'gutter_cleaning' },
    });
    expect(conflict.status).toBe(409);
  });

  it('sets branding for businesses:manage or a direct-connection owner, not for editors or viewers (spec 4.2)', async () => {
    const branding = { displayName: 'Sparkle & Shine', logoUrl: 'https://example.com/logo.png', primaryColor: '#0b5fff', accentColor: '#ffb000' };
    const viewer = await createPerson(tenant, { businessRole: 'viewer' });
    const byViewer = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: viewer.token, body: branding });
    expect(byViewer.status).toBe(403);
    const byEditor = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: editor.token, body: branding });
    expect(byEditor.status).toBe(403);
    const byOwner = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: branding });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data.business.branding).toEqual({
      ...branding,
      nextStep: null,
      acceptanceConsent: 'I agree that Sparkle & Shine may contact me about this quote.',
      acceptanceConsentIsDefault: true,
    });
    // The sentence customers agree to when they accept a quote: the business's own, or the default again.
    const consent = 'I agree that Sparkle & Shine may call me about this quote and my windows.';
    const withConsent = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { ...branding, acceptanceConsent: consent } });
    expect(withConsent.body.data.business.branding).toMatchObject({ acceptanceConsent: consent, acceptanceConsentIsDefault: false });
    const keptConsent = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: branding });
    expect(keptConsent.body.data.business.branding.acceptanceConsent).toBe(consent);
    const tooShort = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { ...branding, acceptanceConsent: 'ok' } });
    expect(Object.keys(tooShort.body.error.details.fields)).toEqual(['acceptanceConsent']);
    const resetConsent = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { ...branding, acceptanceConsent: null } });
    expect(resetConsent.body.data.business.branding.acceptanceConsentIsDefault).toBe(true);
    // A next step under the price; omitted later, it stays; null removes it.
    const nextStep = { label: 'Book this visit', url: 'https://book.example.com/sparkle' };
    const withStep = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { ...branding, nextStep } });
    expect(withStep.body.data.business.branding.nextStep).toEqual(nextStep);
    const kept = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: branding });
    expect(kept.body.data.business.branding.nextStep).toEqual(nextStep);
    const badStep = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      key: owner.token,
      body: { ...branding, nextStep: { label: '', url: 'http://book.example.com' } },
    });
    expect(Object.keys(badStep.body.error.details.fields).sort()).toEqual(['nextStep.label', 'nextStep.url']);
    const removed = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { key: owner.token, body: { ...branding, nextStep: null } });
    expect(removed.body.data.business.branding.nextStep).toBeNull();
    const manager = await createPerson(tenant, { permissions: ['businesses:manage'] });
    const byManager = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      key: manager.token,
      body: { ...branding, logoUrl: null },
    });
    expect(byManager.status).toBe(200);
    const invalid = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      key: owner.token,
      body: { ...branding, primaryColor: 'blue', logoUrl: 'http://insecure.example/logo.png' },
    });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.error.details.fields).sort()).toEqual(['logoUrl', 'primaryColor']);

    const managed = await createTenant();
    await testDb().connection.updateMany({ where: { businessId: managed.businessId }, data: { kind: 'managed' } });
    const managedOwner = await createPerson(managed, { businessRole: 'owner' });
    expect((await api('PUT', `/v1/businesses/${managed.businessId}/branding`, { key: managedOwner.token, body: branding })).status).toBe(403);
  });

  it('refuses the session cookie on cross-site writes', async () => {
    const res = await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, {
      headers: { cookie: `next-auth.session-token=${owner.token}`, origin: 'https://evil.example' },
      body: { displayName: 'Pwned', logoUrl: null, primaryColor: '#000000', accentColor: '#000000' },
    });
    expect(res.status).toBe(403);
    const read = await api('GET', `/v1/businesses/${tenant.businessId}/members`, {
      headers: { cookie: `next-auth.session-token=${owner.token}` },
    });
    expect(read.status).toBe(200);
  });
});
