import { readFileSync } from 'node:fs';
import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api } from '../support/api-client';
import { createPerson, createTenant, testDb, type Tenant } from '../../lib/testing/factories';
import { eventually } from '../../lib/testing/eventually';

/**
 * The request log as only a server at its socket can show it (the rest of the request log's
 * behaviour: request-log.integration.test.ts, in process): the caller's address as the edge saw
 * it, and a request the client cut short. The server writes its rows in batches: a test waits
 * for the row to appear (its flush can trail by seconds under load).
 */
function logRow(where: Parameters<ReturnType<typeof testDb>['requestLog']['findFirst']>[0]) {
  return eventually(() => testDb().requestLog.findFirst(where), 30_000, 50);
}

describe('request log at the socket', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('keeps the address the connection came from', async () => {
    const admin = await createPerson(tenant, { permissions: 'all' });
    const created = await api('POST', '/v1/api-keys', { key: admin.token, body: { name: 'addressed', projectId: tenant.projectId, environment: 'test' } });
    expect(created.status).toBe(201);
    const requestId = created.headers.get('x-request-id')!;
    await logRow({ where: { requestId } });
    const detail = await api('GET', `/v1/request-logs/${requestId}`, { key: admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data.log.ip).toMatch(/^(::1|127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
  });

  it('files a body cut short by the client as its 400, not as an error of ours', async () => {
    const since = new Date();
    const { hostname, port } = new URL(inject('baseUrl'));
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /v1/public_quotes HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"businessId":`);
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    const row = await logRow({ where: { path: '/v1/public_quotes', errorCode: 'invalid_request', createdAt: { gte: since } } });
    expect(row).toMatchObject({ status: 400, method: 'POST', principal: 'anonymous' });
    const serverLog = readFileSync(inject('serverLogFile'), 'utf8');
    expect(serverLog).not.toContain(row.requestId);
  });
});
