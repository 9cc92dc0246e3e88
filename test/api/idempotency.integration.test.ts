import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createTenant, testDb, type Tenant } from '../../lib/testing/factories';

describe('idempotency (spec 4.4)', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  const apiBody = (idempotencyKey?: string, factors: Record<string, string | null> = demoExample.factors) => ({
    businessId: tenant.businessId,
    bookId: tenant.bookId,
    offeringId: demoExample.offeringId,
    factors,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

  it('replays the original intent and receipt for the same key and payload, whatever the key order', async () => {
    const key = `replay-${randomUUID()}`;
    const first = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: apiBody(key) });
    const reordered = Object.fromEntries(Object.entries(demoExample.factors).reverse());
    const second = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: apiBody(key, reordered) });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data).toEqual(first.body.data);
    // the replay has its own request id; the intent keeps the original's
    expect(second.body.requestId).not.toBe(first.body.requestId);
    expect(second.body.data.quoteIntent.requestCorrelationId).toBe(first.headers.get('x-request-id'));
  });

  it('answers 409 idempotency_conflict for the same key with another payload, and stores nothing', async () => {
    const key = `conflict-${randomUUID()}`;
    await api('POST', '/v1/quotes', { key: tenant.keys.test, body: apiBody(key) });
    const res = await api('POST', '/v1/quotes', {
      key: tenant.keys.test,
      body: apiBody(key, { ...demoExample.factors, storeys: '3' }),
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_conflict');
    expect(await testDb().quoteIntent.count({ where: { idempotencyKey: key } })).toBe(1);
  });

  it('generates a distinct auto_<uuid> key when none is given', async () => {
    const a = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: apiBody() });
    const b = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: apiBody() });
    expect(a.body.data.quoteIntent.idempotencyKey).toMatch(/^auto_[0-9a-f-]{36}$/);
    expect(b.body.data.quoteIntent.id).not.toBe(a.body.data.quoteIntent.id);
    expect(b.body.data.quoteIntent.idempotencyKey).not.toBe(a.body.data.quoteIntent.idempotencyKey);
  });

  it('creates exactly one intent for 50 concurrent requests with one key, and answers all alike', async () => {
    const key = `concurrent-${randomUUID()}`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => api('POST', '/v1/quotes', { key: tenant.keys.live, body: apiBody(key) })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const ids = new Set(responses.map((r) => r.body.data.quoteIntent.id));
    expect(ids.size).toBe(1);
    const receipts = new Set(responses.map((r) => JSON.stringify(r.body.data.quoteReceipt)));
    expect(receipts.size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await testDb().quoteIntent.count({ where: { idempotencyKey: key } })).toBe(1);
    expect(await testDb().quoteReceipt.count({ where: { idempotencyKey: key } })).toBe(1);
    expect(
      await testDb().outboxEvent.count({ where: { type: 'quote_intent.succeeded', data: { path: ['quoteIntent', 'idempotencyKey'], equals: key } } }),
    ).toBe(1);
  });

  it('applies to the public route too, per business', async () => {
    const key = `public-${randomUUID()}`;
    const body = { businessId: tenant.businessId, ...demoExample, idempotencyKey: key };
    const first = await api('POST', '/v1/public_quotes', { body });
    const second = await api('POST', '/v1/public_quotes', { body });
    expect(second.body.data).toEqual(first.body.data);
    const conflict = await api('POST', '/v1/public_quotes', { body: { ...body, offeringId: 'gutter_cleaning' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    // an API-key caller using the same key string does not replay the anonymous quote
    const apiQuote = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: apiBody(key) });
    expect(apiQuote.status).toBe(201);
    expect(apiQuote.body.data.quoteIntent.id).not.toBe(first.body.data.quoteIntent.id);
  });
});
