import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDbOf, withTransaction } from '../../lib/context/verb-context';
import { createDb, type DbOrTx } from '../../lib/db/client';
import { applyMigrations } from '../../lib/db/migrate';
import { ReadReplica } from '../../lib/db/read-replica';
import { chooseReadDb } from '../../lib/http/steps/read-after-write';
import { processState, type ProcessState } from '../../lib/process/state';
import { insertRequestLogs, type RequestLogEntry } from '../../lib/requestlog/store';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, type Person, type Tenant } from '../../lib/testing/factories';
import { startStreamingPair, type StreamingPair } from '../../lib/testing/streaming-replica';

/**
 * Longer than any step below takes, on a loaded machine too (where a few requests can take
 * seconds each): the lag is ended by setting the delay back to 0, not waited out, so a longer
 * one costs nothing.
 */
const LAG_MS = 60_000;

/**
 * Issue 31 §3: with DATABASE_READ_URL, searches (and traces, comparisons, request logs) read from
 * a streaming replica, and a caller who just wrote reads their own write. A real primary and hot
 * standby from the embedded binaries (lib/testing/streaming-replica.ts), lag injected with the
 * standby's recovery_min_apply_delay. For this file, the worker's service uses the pair: its
 * requests go through the router and the real wrapper (test/support/service-fetch.ts).
 */
describe('reads on a streaming replica (DATABASE_READ_URL)', () => {
  let pair: StreamingPair;
  let primary: ReturnType<typeof createDb>;
  let replica: ReadReplica;
  let saved: Pick<ProcessState, 'db' | 'readReplica'> | undefined;
  let tenant: Tenant;
  let writer: Person;
  let bystander: Person;

  /** A request-log row written straight on the primary, as another process's writer would. */
  async function logRow(probe: string): Promise<RequestLogEntry> {
    const row: RequestLogEntry = {
      requestId: uuidv7(), method: 'GET', path: `/v1/${probe}`, status: 200, errorCode: null, principal: 'api_key', caller: 'api_key',
      portal: false, ip: null, userAgent: null, requestBody: null, responseBody: null, apiKeyId: tenant.keyIds.test, userId: null,
      workspaceId: tenant.workspaceId, projectId: tenant.projectId, environmentId: tenant.environments.test, businessId: tenant.businessId,
      latencyMs: 1, testFault: null, createdAt: new Date(),
    };
    await insertRequestLogs(primary.prisma, [row]);
    return row;
  }

  /** Whether GET /v1/request-logs shows the row to the caller. */
  async function seen(row: RequestLogEntry, auth: { key: string } | { headers: Record<string, string> }): Promise<boolean> {
    const answer = await api('GET', `/v1/request-logs?path=${encodeURIComponent(row.path)}`, auth);
    expect(answer.status).toBe(200);
    return answer.body.data.logs.some((log: { requestId: string }) => log.requestId === row.requestId);
  }

  const newKey = () => ({ name: `key ${uuidv7()}`, projectId: tenant.projectId, environment: 'test' });
  const aRead = () => new Request('http://localhost/v1/request-logs');
  const inRecovery = async (db: DbOrTx) => (await db.$queryRawUnsafe<{ standby: boolean }[]>('SELECT pg_is_in_recovery() AS standby'))[0].standby;

  beforeAll(async () => {
    pair = await startStreamingPair();
    await applyMigrations(pair.primary.url, path.resolve(import.meta.dirname, '../../prisma/migrations'));
    primary = createDb(pair.primary.url);
    replica = new ReadReplica(pair.replicaUrl, primary);
    tenant = await createTenant({}, primary.prisma);
    [writer, bystander] = await Promise.all([
      createPerson(tenant, { permissions: 'all' }, primary.prisma),
      createPerson(tenant, { permissions: ['logs:read'] }, primary.prisma),
    ]);
    // This worker's service runs on the pair until afterAll (a worker runs one file at a time).
    await processState.requestLogWriter?.flush();
    saved = { db: processState.db, readReplica: processState.readReplica };
    processState.db = { prisma: primary.prisma, pool: primary.pool };
    processState.readReplica = replica;
    // The first request loads the router and the OpenAPI document: not inside a lag window. The
    // row is read once the standby has replayed it (a worker that loaded the router for an
    // earlier file answers before the standby replays, even without a delay).
    const warmUp = await logRow('warm-up');
    await pair.caughtUp();
    expect(await seen(warmUp, { key: bystander.token })).toBe(true);
  });

  afterAll(async () => {
    await processState.requestLogWriter?.flush();
    if (saved) Object.assign(processState, saved);
    await replica?.close();
    await primary?.close();
    await pair?.stop();
  });

  it('reads of a caller who has not written go to the replica, which lags', async () => {
    await pair.setApplyDelay(LAG_MS);
    const row = await logRow('probe-lagging');
    expect(await seen(row, { key: bystander.token })).toBe(false);
    expect(await seen(row, { key: writer.token })).toBe(false);
    expect(await chooseReadDb(aRead(), writer.principal, primary.prisma)).toBe(replica.prisma);
    expect(await inRecovery(replica.prisma)).toBe(true);
    // A write's own request reads from the primary.
    expect(await inRecovery(await chooseReadDb(new Request('http://localhost/v1/api-keys', { method: 'POST' }), bystander.principal, primary.prisma))).toBe(false);
    // A lookup by id is not fooled by the lag: what the replica lacks, the primary is asked for.
    const lookup = await api('GET', `/v1/request-logs/${row.requestId}`, { key: bystander.token });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data.log.path).toBe(row.path);
  });

  it('after a write, the writer reads everything committed before it at once; others still read the replica', async () => {
    const before = await logRow('probe-before-write');
    const created = await api('POST', '/v1/api-keys', { key: writer.token, body: newKey() });
    expect(created.status).toBe(201);
    const answeredAt = performance.now();
    expect(await seen(before, { key: writer.token })).toBe(true);
    expect(performance.now() - answeredAt).toBeLessThan(LAG_MS / 2); // from the primary, not by waiting out the lag
    expect(await seen(before, { key: bystander.token })).toBe(false);
    const readDb = await chooseReadDb(aRead(), writer.principal, primary.prisma);
    expect(await inRecovery(readDb)).toBe(false);
    // Inside a transaction, reads stay on the transaction whatever the read handle is.
    const ctx = { ...testContext(primary.prisma, { principal: writer.principal }), readDb: replica.prisma };
    expect(await inRecovery(readDbOf(ctx))).toBe(true);
    await withTransaction(ctx, async (tx) => {
      expect(readDbOf(tx)).toBe(tx.db);
      expect(await inRecovery(readDbOf(tx))).toBe(false);
    });
  });

  it('once the replica has replayed the write, the writer reads from it again', async () => {
    await pair.setApplyDelay(0);
    await pair.caughtUp();
    expect(await inRecovery(await chooseReadDb(aRead(), writer.principal, primary.prisma))).toBe(true);
    await pair.setApplyDelay(LAG_MS);
    const row = await logRow('probe-after-catch-up');
    expect(await seen(row, { key: writer.token })).toBe(false);
  });

  it('carries a portal write to processes that did not see it, in a cookie', async () => {
    const before = await logRow('probe-other-process');
    const session = `next-auth.session-token=${encodeURIComponent(writer.token)}`;
    const created = await api('POST', '/v1/api-keys', { headers: { cookie: session, 'sec-fetch-site': 'same-origin' }, body: newKey() });
    expect(created.status).toBe(201);
    const readAfter = /^read-after=([0-9A-F]+\/[0-9A-F]+); Path=\/v1; Max-Age=60; HttpOnly; SameSite=Lax$/.exec(created.headers.get('set-cookie') ?? '');
    expect(readAfter).not.toBeNull();
    // Another process: the same replica, no memory of the write.
    const other = new ReadReplica(pair.replicaUrl, primary);
    processState.readReplica = other;
    try {
      expect(await seen(before, { headers: { cookie: session } })).toBe(false);
      expect(await seen(before, { headers: { cookie: `${session}; read-after=${readAfter![1]}` } })).toBe(true);
    } finally {
      processState.readReplica = replica;
      await other.close();
    }
  });

  it('answers from the primary when the replica is down', async () => {
    const row = await logRow('probe-replica-down');
    expect(await seen(row, { key: bystander.token })).toBe(false);
    await pair.stopReplica();
    // The replica's pooled connections are gone: the query is answered by the primary.
    expect(await seen(row, { key: bystander.token })).toBe(true);
    // Then reads go straight to the primary until the replica answers again.
    expect(await chooseReadDb(aRead(), bystander.principal, primary.prisma)).toBe(primary.prisma);
    const lookup = await api('GET', `/v1/request-logs/${row.requestId}`, { key: bystander.token });
    expect(lookup.status).toBe(200);
  });
});
