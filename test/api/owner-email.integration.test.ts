import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountQuote } from '../../lib/accounts/create-account-quote';
import type { ApiKeyPrincipal } from '../../lib/auth/principal';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { acceptQuote } from '../../lib/leads/accept-quote';
import { createBookVersion } from '../../lib/books/create-book-version';
import { pauseArm } from '../../lib/experiments/pause-arms';
import { issueFormToken } from '../../lib/leads/form-token';
import { sendOwnerNotifications } from '../../lib/notifications/send-owner-notifications';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { setEnv } from '../support/settings';

/**
 * With SMTP_URL set, a business's owners get an email about each new lead and each held Live
 * quote, sent by the minute job through a real SMTP server (smtp-server, started here). Without
 * it nothing is queued. The verbs run in this process, where SMTP_URL is set; the service under
 * test runs without it.
 */
describe('emails to owners (SMTP_URL)', () => {
  const inbox: ParsedMail[] = [];
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          inbox.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    setEnv({ SMTP_URL: undefined });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const liveKey = (tenant: Tenant): ApiKeyPrincipal => ({
    kind: 'api_key',
    keyId: tenant.keyIds.live,
    workspaceId: tenant.workspaceId,
    projectId: tenant.projectId,
    environmentId: tenant.environments.live,
    environment: 'live',
    scopes: ['quotes:write'],
  });

  async function leadFor(tenant: Tenant, name: string) {
    const quote = (await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } })).body.data;
    const quoteIntentId = quote.quoteIntent.id;
    await acceptQuote(testContext(testDb()), {
      quoteIntentId,
      request: { businessId: tenant.businessId, contact: { name, phone: '+1 555 0142' }, consent: true, formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5000)) },
    });
    return quoteIntentId;
  }

  it('queues nothing while SMTP_URL is unset', async () => {
    setEnv({ SMTP_URL: undefined });
    const tenant = await createTenant();
    await leadFor(tenant, 'Nobody Told');
    expect(await testDb().ownerNotification.count({ where: { businessId: tenant.businessId } })).toBe(0);
    expect(await sendOwnerNotifications(testContext(testDb()))).toBe(0);
  });

  it('emails the owners about a new lead and a held Live quote, once each', async () => {
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    const [owner, coOwner] = await Promise.all([createPerson(tenant, { businessRole: 'owner' }), createPerson(tenant, { businessRole: 'owner' })]);
    await createPerson(tenant, { businessRole: 'editor' });
    // A second business connected to the same project hears of its held quotes too.
    const sibling = await testDb().business.create({ data: { workspaceId: tenant.workspaceId, name: `Sibling ${randomUUID().slice(0, 6)}` } });
    await testDb().connection.create({ data: { businessId: sibling.id, projectId: tenant.projectId, kind: 'managed', status: 'active' } });
    const siblingOwner = await createPerson({ workspaceId: tenant.workspaceId, businessId: sibling.id }, { businessRole: 'owner' });
    const quoteIntentId = await leadFor(tenant, 'Jordan Blake');
    const request = { services: [{ service: demoExample.offeringId, selections: demoExample.factors }], context: {} };
    const { quote } = await createAccountQuote(testContext(testDb(), { principal: liveKey(tenant) }), { idempotencyKey: randomUUID(), request });
    expect(quote.state).toBe('awaiting_approval');
    // Test quotes are the integrator's: no email.
    await createAccountQuote(testContext(testDb(), { principal: { ...liveKey(tenant), environment: 'test', environmentId: tenant.environments.test } }), {
      idempotencyKey: randomUUID(),
      request,
    });
    expect(await testDb().ownerNotification.count({ where: { businessId: tenant.businessId } })).toBe(2);
    expect(await testDb().ownerNotification.count({ where: { businessId: sibling.id } })).toBe(1);

    expect(await sendOwnerNotifications(testContext(testDb()))).toBeGreaterThanOrEqual(3);
    const ours = inbox.filter((mail) => mail.text?.includes(tenant.businessId));
    expect(ours).toHaveLength(2);
    const lead = ours.find((mail) => mail.subject?.startsWith('New lead'))!;
    expect(lead.subject).toMatch(/^New lead for .+: Jordan Blake accepted a quote of \$155\.25$/);
    expect(lead.text).toContain(quoteIntentId);
    expect((lead.to as { value: { address: string }[] }).value.map((v) => v.address).sort()).toEqual([owner.email, coOwner.email].sort());
    const held = ours.find((mail) => mail.subject?.includes('waiting for your review'))!;
    expect(held.text).toContain(quote.quote_id);
    const theirs = inbox.filter((mail) => mail.text?.includes(sibling.id));
    expect(theirs.map((mail) => (mail.to as { value: { address: string }[] }).value[0].address)).toEqual([siblingOwner.email]);
    // Sent once: a second pass finds nothing due.
    await sendOwnerNotifications(testContext(testDb()));
    expect(inbox.filter((mail) => mail.text?.includes(tenant.businessId))).toHaveLength(2);
  });

  it('emails the owners when a guardrail pauses an experiment’s variant', async () => {
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const tenant = await createTenant();
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const publisher = await createPerson(tenant, { permissions: ['books:publish'] });
    const variant = await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: demoBookArtifact });
    const created = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
      key: publisher.token,
      body: { environment: 'live', name: 'Spring prices', controlWeight: 50, variants: [{ versionId: variant.id, weight: 50 }] },
    });
    const id = created.body.data.experiment.id;
    expect((await api('POST', `/v1/books/${tenant.bookId}/experiments/${id}/start`, { key: publisher.token })).status).toBe(200);
    const reason = "Pause variant_1: its acceptance rate is more than 5 points below the control's (95%: at least 7.4 points below)";
    expect(await pauseArm(testContext(testDb()), { id, bookId: tenant.bookId, workspaceId: tenant.workspaceId, projectId: tenant.projectId }, 'variant_1', reason)).toBe(true);
    await sendOwnerNotifications(testContext(testDb()));
    const mail = inbox.find((m) => m.subject?.startsWith('Price experiment "Spring prices" paused variant_1') && m.text?.includes(tenant.bookId))!;
    expect(mail.text).toContain(reason);
    expect((mail.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual([owner.email]);
  });

  it('keeps a notification whose send failed, with the error, and tries it again later', async () => {
    setEnv({ SMTP_URL: 'smtp://127.0.0.1:9' }); // nothing listens on the discard port
    const tenant = await createTenant();
    await createPerson(tenant, { businessRole: 'owner' });
    await leadFor(tenant, 'Sam Retry');
    const now = new Date();
    await sendOwnerNotifications(testContext(testDb(), { now }));
    const failed = await testDb().ownerNotification.findFirstOrThrow({ where: { businessId: tenant.businessId } });
    expect(failed).toMatchObject({ sentAt: null, attempts: 1, lastError: expect.any(String) });
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());

    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    await sendOwnerNotifications(testContext(testDb(), { now: new Date(failed.nextAttemptAt.getTime() + 1000) }));
    const sent = await testDb().ownerNotification.findFirstOrThrow({ where: { businessId: tenant.businessId } });
    expect(sent).toMatchObject({ attempts: 2, lastError: null, sentAt: expect.any(Date) });
    expect(inbox.some((mail) => mail.subject?.includes('Sam Retry'))).toBe(true);
  });
});
