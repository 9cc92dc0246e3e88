import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { RATE_LIMITS } from '../../lib/ratelimit/registry';
import { api } from '../support/api-client';
import { createTenant, testDb, type Tenant } from '../../lib/testing/factories';

/**
 * The hosted page's acceptance allowance is the business's own: counted by the business of the
 * quote in the path, only for new acceptances, with a share per client address; and a quote
 * accepted by one person is not silently accepted again by another.
 */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function publicQuote(t: Tenant): Promise<string> {
  const res = await api('POST', '/v1/public_quotes', { body: { businessId: t.businessId, ...demoExample } });
  expect(res.status).toBe(201);
  return res.body.data.quoteIntent.id;
}

function acceptanceBody(businessId: string, quoteIntentId: string, contact: Record<string, string> = { name: 'Sam Okafor', email: 'sam@example.test' }) {
  return { businessId, contact, preferredDate: day(7), consent: true, formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)) };
}

const accept = (quoteIntentId: string, body: unknown, from = '203.0.113.7') =>
  api('POST', `/v1/public_quotes/${quoteIntentId}/acceptance`, { body, headers: { 'x-forwarded-for': from } });

describe('the acceptance allowance', () => {
  it('is not spent by posts that name another business, nor by repeats of an accepted quote', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const quoteOfA = await publicQuote(a);
    // The attack: a valid form for A's quote, posted naming B, more times than B's allowance.
    for (let i = 0; i < RATE_LIMITS.publicAcceptanceCreate.points + 5; i++) {
      const res = await accept(quoteOfA, acceptanceBody(b.businessId, quoteOfA), `198.51.100.${i}`);
      expect(res.status).toBe(404);
    }
    const quoteOfB = await publicQuote(b);
    const genuine = acceptanceBody(b.businessId, quoteOfB);
    expect((await accept(quoteOfB, genuine)).status).toBe(201);
    // The same customer pressing again, more times than any allowance: the first acceptance, again.
    for (let i = 0; i < RATE_LIMITS.publicAcceptanceCreate.points + 5; i++) {
      const again = await accept(quoteOfB, genuine);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    // Forged forms, robots' and forms of another quote are refused at no cost to the business.
    const target = await publicQuote(b);
    for (let i = 0; i < RATE_LIMITS.publicAcceptanceCreate.points + 5; i++) {
      const junk = [{ formToken: `${Date.now() - 9_000}.forged` }, { website: 'https://spam.example' }, { formToken: issueFormToken(quoteOfA, new Date(Date.now() - 5_000)) }][i % 3];
      expect((await accept(target, { ...acceptanceBody(b.businessId, target), ...junk })).status).toBe(400);
    }
    const next = await publicQuote(b);
    expect((await accept(next, acceptanceBody(b.businessId, next))).status).toBe(201);
  });

  it('gives one client address a share of the business’s allowance, and the business its own limit', async () => {
    const t = await createTenant();
    const share = RATE_LIMITS.publicAcceptancePerClient.points;
    const total = RATE_LIMITS.publicAcceptanceCreate.points;
    const quotes: string[] = [];
    for (let i = 0; i < total + 2; i++) quotes.push(await publicQuote(t));
    let next = 0;
    const acceptNext = (from: string) => {
      const id = quotes[next++];
      return accept(id, acceptanceBody(t.businessId, id, { name: `Customer ${next}`, email: `c${next}@example.test` }), from);
    };
    for (let i = 0; i < share; i++) expect((await acceptNext('192.0.2.1')).status).toBe(201);
    const spentShare = await acceptNext('192.0.2.1');
    expect(spentShare.status).toBe(429);
    expect(spentShare.body.error.code).toBe('rate_limited');
    expect(Number(spentShare.headers.get('retry-after'))).toBeGreaterThan(0);
    // Others still get through, until the business's own allowance is spent.
    let accepted = share;
    for (let from = 2; accepted < total; from++) {
      for (let i = 0; i < share && accepted < total; i++, accepted++) expect((await acceptNext(`192.0.2.${from}`)).status).toBe(201);
    }
    expect((await acceptNext('192.0.2.99')).status).toBe(429);
    expect(await testDb().quoteAcceptance.count({ where: { businessId: t.businessId } })).toBe(total);
  });
});

describe('a quote accepted by someone', () => {
  it('answers the first acceptance to the same details, and refuses other details without showing the first', async () => {
    const t = await createTenant();
    const quote = await publicQuote(t);
    const email = `first-${randomUUID().slice(0, 8)}@example.test`;
    const first = acceptanceBody(t.businessId, quote, { name: 'First Person', email });
    const created = await accept(quote, first);
    expect(created.status).toBe(201);
    const replay = await accept(quote, { ...first, formToken: issueFormToken(quote, new Date(Date.now() - 3_000)) });
    expect(replay.status).toBe(201);
    expect(replay.body.data.acceptance).toEqual(created.body.data.acceptance);

    for (const other of [
      acceptanceBody(t.businessId, quote, { name: 'Second Person', email: 'second@example.test' }),
      acceptanceBody(t.businessId, quote, { name: 'First Person', email, phone: '+1 555 0199' }),
      { ...first, note: 'Another note' },
    ]) {
      const refused = await accept(quote, other, '198.51.100.200');
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'quote_already_accepted', details: { acceptedAt: created.body.data.acceptance.acceptedAt } });
      expect(refused.text).not.toContain(email);
      expect(refused.text).not.toContain('First Person');
    }
    expect(await testDb().quoteAcceptance.count({ where: { quoteIntentId: quote } })).toBe(1);
  });
});
