import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { quoteRequest, createTenant, testDb, type Tenant } from '../../lib/testing/factories';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';

/** The points a business's public quote counter holds now. */
async function pointsSpent(businessId: string): Promise<number> {
  const rows = await testDb().$queryRaw<{ points: number }[]>`SELECT points FROM rate_limits WHERE key = ${`publicQuoteCreate:${businessId}`}`;
  return rows[0]?.points ?? 0;
}

/** Posts straight to one server instance (the shared client always uses the first one). */
async function postTo(baseUrl: string, body: unknown) {
  const res = await fetch(`${baseUrl}/v1/public_quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('public quote limit: 120 creates per minute per Business (spec 8)', () => {
  let second: RunningServer;
  let tenant: Tenant;
  let bystander: Tenant;
  let burst: Tenant;
  let retried: Tenant;

  beforeAll(async () => {
    // A second service instance on the same database: the count must be shared.
    second = await startNextServer({
      root: path.resolve(import.meta.dirname, '../..'),
      env: { DATABASE_URL: inject('databaseUrl') },
      logFile: path.resolve(import.meta.dirname, '../../test-results/integration-server-2.log'),
    });
    [tenant, bystander, burst, retried] = await Promise.all([createTenant(), createTenant(), createTenant(), createTenant()]);
  });

  afterAll(async () => {
    await second?.stop();
  });

  it('counts across service instances, then answers 429 rate_limited with retry-after', async () => {
    const body = { businessId: tenant.businessId, ...demoExample };
    const first = inject('baseUrl');
    const results = [];
    for (let batch = 0; batch < 6; batch++) {
      // 20 at a time, alternating instances: 60 on each
      results.push(
        ...(await Promise.all(Array.from({ length: 20 }, (_, i) => postTo(i % 2 ? second.url : first, body)))),
      );
    }
    expect(results.map((r) => r.status)).toEqual(Array(120).fill(201));

    for (const url of [first, second.url]) {
      const limited = await postTo(url, body);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('x-request-id')).toBe(limited.body.error.requestId);
    }
    // the limit is per Business
    const other = await api('POST', '/v1/public_quotes', { body: { businessId: bystander.businessId, ...demoExample } });
    expect(other.status).toBe(201);
    // and it is the public route's: API-key quotes for the same business go on
    const keyed = await api('POST', '/v1/quotes', {
      key: tenant.keys.live,
      body: quoteRequest(tenant),
    });
    expect(keyed.status).toBe(201);
  });

  it('quotes exactly 120 of 150 sent at once to both instances, and refuses the other 30', async () => {
    const body = { businessId: burst.businessId, ...demoExample };
    const first = inject('baseUrl');
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => postTo(i % 2 ? second.url : first, body)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(120);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    // Each quoted request made a quote of its own.
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.quoteIntent.id)).size).toBe(120);
  });

  it('answers a replay past the limit on either instance, counts only new quotes, and refuses known-spent windows at no cost', async () => {
    const first = inject('baseUrl');
    const body = { businessId: retried.businessId, ...demoExample };
    const original = await postTo(first, { ...body, idempotencyKey: 'customer-retry-0001' });
    expect(original.status).toBe(201);
    // The second instance quotes this business once (it remembers its scope), the first the rest.
    expect((await postTo(second.url, body)).status).toBe(201);
    const rest = await Promise.all(Array.from({ length: 118 }, () => postTo(first, body)));
    expect(rest.map((r) => r.status)).toEqual(Array(118).fill(201));
    expect(await pointsSpent(retried.businessId)).toBe(120);

    // The first instance spent the window's last point, so it refuses the 121st new quote before any work.
    expect((await postTo(first, body)).status).toBe(429);
    expect(await pointsSpent(retried.businessId)).toBe(120);

    // The customer's retry is their quote again, and is not counted: the second instance, which
    // knows neither the key nor the spent window, finds it taken in the quote's own write.
    for (const url of [second.url, first]) {
      const replay = await postTo(url, { ...body, idempotencyKey: 'customer-retry-0001' });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.quoteIntent.id).toBe(original.body.data.quoteIntent.id);
    }
    expect(await pointsSpent(retried.businessId)).toBe(120);

    // More new quotes: refused as soon as they arrive, and nothing more is spent.
    for (let i = 0; i < 5; i++) {
      const refused = await postTo(first, body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await pointsSpent(retried.businessId)).toBe(120);
  });
});
