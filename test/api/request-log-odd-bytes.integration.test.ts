import { describe, expect, it } from 'vitest';
import { RequestLogWriter } from '../../lib/requestlog/request-log-writer';
import type { RequestLogEntry } from '../../lib/requestlog/store';
import { createTenant, quoteRequest, requestLogEntry, testDb, type Tenant } from '../../lib/testing/factories';
import { flushRequestLog } from '../support/request-log';
import { serviceFetch } from '../support/service-fetch';

// "Every /v1 request leaves one row": whatever bytes a caller sends, its row and every other
// caller's row of the same batch are written, and the hourly rollup counts them all.

const NUL = '\u0000';

/** Requests a careless or hostile client sends, mixed with ordinary ones, for one tenant. */
function requestsOf(t: Tenant): [string, RequestInit][] {
  const key = { authorization: `Bearer ${t.keys.test}`, 'content-type': 'application/json' };
  const valid = JSON.stringify(quoteRequest(t));
  return [
    ['/v1/quotes', { method: 'POST', headers: key, body: valid }],
    // A raw NUL inside a string: not JSON, so the log keeps the text.
    ['/v1/quotes', { method: 'POST', headers: key, body: `{"businessId":"${t.businessId}","offeringId":"x${NUL}y"}` }],
    // Bytes that are not UTF-8, inside and outside JSON.
    ['/v1/quotes', { method: 'POST', headers: key, body: Buffer.concat([Buffer.from(valid.slice(0, -1)), Buffer.from([0x2c, 0x22, 0xc0, 0xff, 0x22, 0x7d])]) }],
    ['/v1/quotes', { method: 'POST', headers: key, body: Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x00, 0xfe]) }],
    // A lone surrogate, escaped in JSON.
    ['/v1/quotes', { method: 'POST', headers: key, body: JSON.stringify(quoteRequest(t)).replace('"offeringId":"', '"offeringId":"\\ud800') }],
    // Odd bytes in the path, the query, the agent and the forwarded address.
    [`/v1/accounts/%00${t.projectId}/quote-spec?x=%00%ED%A0%80`, { headers: { authorization: `Bearer ${t.keys.test}` } }],
    ['/v1/accounts/current?q=%C0%FF', { headers: { authorization: `Bearer ${t.keys.test}`, 'user-agent': 'caf\u00e9 \u00ff\u00fe agent', 'x-forwarded-for': '\u00c0\u00ff, 10.0.0.1' } }],
    ['/v1/quotes', { method: 'POST', headers: { ...key, 'user-agent': `${'\u00e9'.repeat(299)}\u00ff` }, body: valid }],
    // Anonymous: a public quote whose body is not JSON because of a NUL.
    ['/v1/public_quotes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"businessId":"${t.businessId}","offeringId":"x${NUL}y"}` }],
  ];
}


describe('request log: odd bytes', () => {
  it('keeps one row per request of two tenants sent together, odd bytes escaped, and counts every one in the rollup', async () => {
    const tenants = [await createTenant(), await createTenant()];
    await flushRequestLog();
    // All at once, so that they share the writer's batches.
    const answers = await Promise.all(tenants.flatMap((t) => requestsOf(t).map(([path, init]) => serviceFetch(path, init))));
    const requestIds = answers.map((a) => a.headers.get('x-request-id')!);
    expect(answers.every((a) => a.status < 500)).toBe(true);
    await flushRequestLog();

    const db = testDb();
    const rows = await db.requestLog.findMany({ where: { requestId: { in: requestIds } }, select: { requestId: true, workspaceId: true, userAgent: true, ip: true, path: true } });
    expect(rows.map((r) => r.requestId).sort()).toEqual([...requestIds].sort());

    for (const t of tenants) {
      const logged = rows.filter((r) => r.workspaceId === t.workspaceId).length;
      const rollup = await db.requestLogHourly.aggregate({ where: { workspaceId: t.workspaceId }, _sum: { requests: true } });
      expect(logged).toBeGreaterThanOrEqual(requestsOf(t).length - 1);
      expect(Number(rollup._sum.requests)).toBe(logged);
    }

    const bodies = await db.requestLogBody.findMany({ where: { requestId: { in: requestIds } }, select: { requestBody: true } });
    const sent = bodies.map((b) => b.requestBody ?? '');
    expect(sent).toContainEqual(expect.stringContaining('x\\u0000y'));
    expect(sent).toContainEqual(expect.stringContaining('\\xC0\\xFF'));
    expect(sent).toContainEqual(expect.stringContaining('{\\xED\\xA0\\x80\\u0000\\xFE'));
    expect(sent).toContainEqual(expect.stringContaining('\\ud800'));
    expect(rows.map((r) => r.userAgent)).toContainEqual('caf\u00e9 \u00ff\u00fe agent');
    expect(rows.map((r) => r.ip)).toContainEqual('\u00c0\u00ff');
  });

  it('writes every other row of a batch PostgreSQL refuses for one, with their rollups', async () => {
    const t = await createTenant();
    const db = testDb();
    const writer = new RequestLogWriter(() => db);
    const entry = (n: number, extra: Partial<RequestLogEntry> = {}) => requestLogEntry(t, { requestId: `odd-bytes-${t.workspaceId}-${n}`, ...extra });
    // One row no escaping can save (a status beyond PostgreSQL's integer) among ordinary ones.
    for (let n = 0; n < 10; n++) writer.record(entry(n, n === 4 ? { status: 2 ** 40 } : {}));
    await writer.flush();
    const written = await db.requestLog.count({ where: { workspaceId: t.workspaceId, requestId: { startsWith: 'odd-bytes-' } } });
    expect(written).toBe(9);
    const rollup = await db.requestLogHourly.aggregate({ where: { workspaceId: t.workspaceId }, _sum: { requests: true } });
    expect(Number(rollup._sum.requests)).toBe(9);
  });
});
