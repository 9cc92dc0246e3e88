import { randomUUID } from 'node:crypto';
import { flushRequestLog } from '../support/request-log';
import { describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, testDb } from '../../lib/testing/factories';
import { startReceiver } from '../../lib/testing/https-receiver';
import { tablesHolding } from '../../lib/testing/search-database';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { deliverThrough } from '../../lib/webhooks/deliver-due-webhooks';

/**
 * "Erase personal data" leaves nothing of the person anywhere: every table of the database is
 * searched for their name, email, phone, note, address and browser after the erasure (and each is
 * first shown to be there, so that the search can fail).
 */

describe('erasing a lead', () => {
  it('leaves none of the person’s name, email, phone, note, address or browser in any table; other customers keep theirs', async () => {
    const tenant = await createTenant();
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
    const tag = randomUUID().slice(0, 8);
    const person = {
      name: `Quinn Harrow ${tag}`,
      email: `quinn-${tag}@example.test`,
      phone: `+1 555 ${Number.parseInt(tag.slice(0, 6), 16) % 10_000_000}`,
      note: `Gate code ${tag}, dog is friendly`,
      ip: `10.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16)}.${Number.parseInt(tag.slice(4, 6), 16)}`,
      browser: `QuinnBrowser/${tag}`,
    };
    const bystander = { ip: `172.16.${Number.parseInt(tag.slice(0, 2), 16)}.9`, browser: `OtherBrowser/${tag}` };
    const as = (who: { ip: string; browser: string }) => ({ 'x-forwarded-for': who.ip, 'user-agent': who.browser });

    // A receiver that echoes what it got (its answer is kept as the attempt's excerpt), and a
    // second endpoint whose delivery is still to be sent when the erasure happens.
    const echo = await startReceiver(() => ({ status: 200, afterMs: 0, body: `thanks ${person.name} <${person.email}>` }));
    const late = await startReceiver();
    try {
      const asAdmin = testContext(testDb(), { principal: admin.principal });
      await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'live', url: echo.url, eventTypes: ['quote_intent.accepted'] });
      await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'live', url: late.url, eventTypes: ['quote_intent.accepted'] });

      // The customer's visit: an email typed where it does not belong, a quote, its page and form,
      // a refused acceptance, the acceptance, and the same again from another tab.
      const typedAstray = await api('POST', '/v1/public_quotes', { headers: as(person), body: { businessId: tenant.businessId, ...demoExample, reachMeAt: person.email } });
      expect(typedAstray.status).toBe(422);
      const quote = await api('POST', '/v1/public_quotes', { headers: as(person), body: { businessId: tenant.businessId, ...demoExample } });
      const quoteId: string = quote.body.data.quoteIntent.id;
      expect((await api('GET', `/v1/public_quotes/${quoteId}`, { headers: as(person) })).status).toBe(200);
      expect((await api('GET', `/v1/public_quotes/${quoteId}/acceptance`, { headers: as(person) })).status).toBe(200);
      const body = {
        businessId: tenant.businessId,
        contact: { name: person.name, email: person.email, phone: person.phone },
        note: person.note,
        consent: true,
        formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)),
      };
      expect((await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { headers: as(person), body: { ...body, preferredDate: '2001-01-01', comments: person.phone } })).status).toBe(400);
      expect((await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { headers: as(person), body })).status).toBe(201);
      expect((await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { headers: as(person), body })).status).toBe(201);
      // Another customer of the same business, the same day.
      const theirs = await api('POST', '/v1/public_quotes', { headers: as(bystander), body: { businessId: tenant.businessId, ...demoExample } });
      expect(theirs.status).toBe(201);

      const [delivery] = await testDb().webhookDelivery.findMany({ where: { event: { subjectId: quoteId, type: 'quote_intent.accepted' }, endpoint: { url: echo.url } } });
      expect(await deliverThrough(testContext(testDb()), { deliveryId: delivery.id })).toMatchObject({ status: 'succeeded' });
      await flushRequestLog();

      const needles = Object.entries(person);
      const { found: before } = await tablesHolding(testDb(), Object.values(person));
      for (const [what, needle] of needles) expect(before[needle], `${what} is stored before the erasure`).not.toEqual([]);

      const leads = await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: owner.token });
      const lead = leads.body.data.leads[0];
      const erased = await api('POST', `/v1/businesses/${tenant.businessId}/leads/${lead.id}/erasure`, { key: owner.token });
      expect(erased.status).toBe(200);
      expect(erased.body.data.lead).toMatchObject({ status: 'erased', contact: null, note: null });
      await flushRequestLog();

      const { found: after } = await tablesHolding(testDb(), [...Object.values(person), bystander.browser]);
      for (const [what, needle] of needles) expect(after[needle], `${what} after the erasure`).toEqual([]);
      // What was not theirs stays: the quote and its receipt, the other customer's address and browser.
      expect((await api('GET', `/v1/public_quotes/${quoteId}`)).body.data.quoteReceipt).toEqual(quote.body.data.quoteReceipt);
      expect(after[bystander.browser]).toEqual([expect.stringMatching(/request_log_partitions\.d\d{8}: 1/)]);
      // The delivery still to be sent carries the erased payload.
      const [pending] = await testDb().webhookDelivery.findMany({ where: { event: { subjectId: quoteId, type: 'quote_intent.accepted' }, endpoint: { url: late.url } } });
      expect(await deliverThrough(testContext(testDb()), { deliveryId: pending.id })).toMatchObject({ status: 'succeeded' });
      const sent = late.received.map((r) => r.rawBody).join('\n');
      expect(JSON.parse(sent).data.acceptance).toMatchObject({ contact: null, note: null, erasedAt: expect.any(String) });
      for (const [, needle] of needles) expect(sent).not.toContain(needle);
    } finally {
      await Promise.all([echo.stop(), late.stop()]);
    }
  });

  it('forgets the requests of a quote made more than a year ago, in its day and in every month since', async () => {
    const tenant = await createTenant();
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const tag = randomUUID().slice(0, 8);
    const customer = { 'x-forwarded-for': `10.99.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16)}`, 'user-agent': `YearAgoBrowser/${tag}` };
    const quote = await api('POST', '/v1/public_quotes', { headers: customer, body: { businessId: tenant.businessId, ...demoExample } });
    const quoteId: string = quote.body.data.quoteIntent.id;
    const contact = { name: `Rowan Year ${tag}`, email: `rowan-${tag}@example.test`, phone: '+1 555 0100' };
    const accepted = await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, {
      headers: customer,
      body: { businessId: tenant.businessId, contact, consent: true, formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)) },
    });
    expect(accepted.status).toBe(201);
    // A visit months later, from the same address and browser, that names no quote.
    expect((await api('GET', `/v1/public_quotes/${randomUUID()}`, { headers: customer })).status).toBe(404);
    await flushRequestLog();
    // The quote and the request that made it, moved 400 days back: the erasure reads thirteen months of days.
    const db = testDb();
    await db.$executeRaw`UPDATE quote_intents SET created_at = created_at - interval '400 days' WHERE id = ${quoteId}::uuid`;
    const quotedBy = quote.body.data.quoteIntent.requestCorrelationId as string;
    await db.$executeRaw`UPDATE request_log_bodies SET created_at = created_at - interval '400 days' WHERE request_id = ${quotedBy}`;
    await db.$executeRaw`UPDATE request_logs SET created_at = created_at - interval '400 days' WHERE request_id = ${quotedBy}`;
    const theirs = () => db.requestLog.findMany({ where: { userAgent: customer['user-agent'] }, select: { requestId: true, createdAt: true } });
    expect((await theirs()).length).toBe(3);

    const leads = await api('GET', `/v1/businesses/${tenant.businessId}/leads`, { key: owner.token });
    // Asked several times at once (a double click, a retry): each answers the erased lead.
    const erasures = await Promise.all(
      Array.from({ length: 8 }, () => api('POST', `/v1/businesses/${tenant.businessId}/leads/${leads.body.data.leads[0].id}/erasure`, { key: owner.token })),
    );
    expect(erasures.map((e) => [e.status, e.body.data?.lead.status])).toEqual(Array.from({ length: 8 }, () => [200, 'erased']));
    expect(await theirs()).toEqual([]);
    const { found } = await tablesHolding(db, [customer['x-forwarded-for'], customer['user-agent'], contact.email, contact.name]);
    expect(found).toEqual({ [customer['x-forwarded-for']]: [], [customer['user-agent']]: [], [contact.email]: [], [contact.name]: [] });
  });
});
