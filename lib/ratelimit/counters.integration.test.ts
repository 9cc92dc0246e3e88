import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sqlRows } from '../db/sql';
import { testDb } from '../testing/factories';
import { forgetSpentCounters, spendPoint } from './counters';
import { spendAllowance } from './registry';

const key = () => `test:${randomUUID()}`;

describe('rate-limit counters', () => {
  it('gives 300 spends at once on one counter the places 1 to 300, each once, in one window', async () => {
    const counter = key();
    const spent = await Promise.all(Array.from({ length: 300 }, () => spendPoint(testDb(), { key: counter, windowMs: 60_000 })));
    expect(spent.map((s) => s.position).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(new Set(spent.map((s) => s.expireMs)).size).toBe(1);
    const [row] = await sqlRows<{ points: number }>(testDb(), 'SELECT points FROM rate_limits WHERE key = $1', [counter]);
    expect(row.points).toBe(300);
  });

  it('counts counters spent in the same batches apart, in any order of arrival', async () => {
    const [a, b, c] = [key(), key(), key()];
    const order = [a, b, a, c, b, a, c, a, b, a];
    const spent = await Promise.all(order.map((counter) => spendPoint(testDb(), { key: counter, windowMs: 60_000 })));
    const places = (counter: string) => spent.filter((_, i) => order[i] === counter).map((s) => s.position).sort((x, y) => x - y);
    expect(places(a)).toEqual([1, 2, 3, 4, 5]);
    expect(places(b)).toEqual([1, 2, 3]);
    expect(places(c)).toEqual([1, 2]);
  });

  it('starts a counter again once its window has ended', async () => {
    const counter = key();
    await sqlRows(testDb(), 'INSERT INTO rate_limits (key, points, expire) VALUES ($1, 500, $2)', [counter, Date.now() - 1]);
    const spent = await spendPoint(testDb(), { key: counter, windowMs: 60_000 });
    expect(spent.position).toBe(1);
    expect(spent.expireMs).toBeGreaterThan(Date.now() + 50_000);
  });

  it('refuses the spend past the limit with 429 and the seconds left of the window, and counts it', async () => {
    const business = randomUUID();
    const states = [];
    for (let i = 0; i < 120; i++) states.push(await spendAllowance(testDb(), 'publicQuoteCreate', business));
    expect(states[0]).toMatchObject({ limit: 120, remaining: 119 });
    expect(states[119]).toMatchObject({ limit: 120, remaining: 0 });
    expect(states[119].resetSeconds).toBeGreaterThanOrEqual(1);
    expect(states[119].resetSeconds).toBeLessThanOrEqual(60);
    const refused = await spendAllowance(testDb(), 'publicQuoteCreate', business).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429 });
    const retryAfter = Number((refused as { headers: Record<string, string> }).headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const [row] = await sqlRows<{ points: number }>(testDb(), 'SELECT points FROM rate_limits WHERE key = $1', [`publicQuoteCreate:${business}`]);
    expect(row.points).toBe(121);
  });

  it('forgets counters an hour past their window, and keeps the rest', async () => {
    const [old, recent] = [key(), key()];
    const now = new Date();
    await sqlRows(testDb(), 'INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, $2), ($3, 1, $4)', [
      old,
      now.getTime() - 3_600_001,
      recent,
      now.getTime() - 3_599_000,
    ]);
    expect(await forgetSpentCounters(testDb(), now)).toBeGreaterThanOrEqual(1);
    const left = await sqlRows<{ key: string }>(testDb(), 'SELECT key FROM rate_limits WHERE key = ANY($1::text[])', [[old, recent]]);
    expect(left.map((row) => row.key)).toEqual([recent]);
  });
});
