import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../lib/events/record-event';
import { runMinuteJobs, runWebhookJobs } from '../../lib/jobs/run-jobs';
import { api } from '../support/api-client';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, createTenant, quoteRequest, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { startReceiver } from '../../lib/testing/https-receiver';
import { webhookTestbed } from '../support/webhook-testbed';
import { claimDueDeliveries } from '../../lib/webhooks/claims';
import { deliverGroup } from '../../lib/webhooks/deliver-due-webhooks';
import { SendWindow, webhookWindow } from '../../lib/webhooks/send-window';

const SEND_WINDOW = webhookWindow().size;
import { RETRY_DELAYS_MS } from '../../lib/webhooks/retry-schedule';
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { deleteEndpoint } from '../../lib/webhooks/delete-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';

/** Deleting or disabling an endpoint gives its pending deliveries their final state: `canceled`. */
describe('deleting an endpoint, over HTTP (no job runner)', () => {
  let tenant: Tenant;
  let admin: Person;

  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  });

  const createEndpointOverHttp = async (url: string) =>
    (await api('POST', '/v1/webhook-endpoints', { key: admin.token, body: { projectId: tenant.projectId, environment: 'test', url } })).body
      .data.endpoint;
  const deliveriesOf = async (endpointId: string, status?: string) => {
    const res = await api('GET', `/v1/webhook-deliveries?endpointId=${endpointId}${status ? `&status=${status}` : ''}`, { key: admin.token });
    expect(res.status).toBe(200);
    return res.body.data.deliveries as { id: string; status: string; nextAttemptAt: string | null; canceledAt: string | null }[];
  };

  it('cancels its pending deliveries, lists them as canceled, and refuses to replay them', async () => {
    const removed = await createEndpointOverHttp('https://hooks.example.com/removed');
    const kept = await createEndpointOverHttp('https://hooks.example.com/kept');
    for (let i = 0; i < 2; i++) {
      const quote = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
      expect(quote.status).toBe(201);
    }
    expect((await api('POST', `/v1/webhook-endpoints/${removed.id}/test-events`, { key: admin.token })).status).toBe(201);
    expect(await deliveriesOf(removed.id, 'pending')).toHaveLength(3);

    const deleting = Date.now();
    expect((await api('DELETE', `/v1/webhook-endpoints/${removed.id}`, { key: admin.token })).status).toBe(200);

    expect(await deliveriesOf(removed.id, 'pending')).toEqual([]);
    const canceled = await deliveriesOf(removed.id, 'canceled');
    expect(canceled).toHaveLength(3);
    for (const delivery of canceled) {
      expect(delivery).toMatchObject({ status: 'canceled', nextAttemptAt: null });
      expect(Date.parse(delivery.canceledAt!)).toBeGreaterThanOrEqual(deleting - 1_000);
    }
    expect((await deliveriesOf(removed.id)).map((d) => d.status)).toEqual(['canceled', 'canceled', 'canceled']);
    // Out of the due queue: nothing pending is left for it, leased or not.
    const stored = await testDb().webhookDelivery.findMany({ where: { endpointId: removed.id } });
    expect(stored.map((d) => [d.status, d.nextAttemptAt, d.leasedUntil])).toEqual(Array(3).fill(['canceled', null, null]));
    // Another endpoint's deliveries of the same events wait as before.
    expect((await deliveriesOf(kept.id)).map((d) => d.status)).toEqual(['pending', 'pending']);

    const replay = await api('POST', `/v1/webhook-deliveries/${canceled[0].id}/replay`, { key: admin.token });
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/endpoint has been deleted/) });
    expect(await testDb().webhookDelivery.count({ where: { endpointId: removed.id } })).toBe(3);
    expect((await api('POST', `/v1/webhook-endpoints/${removed.id}/test-events`, { key: admin.token })).status).toBe(404);
  });

  it('disabling cancels its pending deliveries; once enabled again, they can be replayed', async () => {
    const paused = await createEndpointOverHttp('https://hooks.example.com/paused');
    // Taken before its deliveries are made: they are "since" it however long the steps below take.
    const since = new Date(Date.now() - 60_000).toISOString();
    const quote = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    expect(quote.status).toBe(201);
    expect((await api('POST', `/v1/webhook-endpoints/${paused.id}/test-events`, { key: admin.token })).status).toBe(201);
    expect(await deliveriesOf(paused.id, 'pending')).toHaveLength(2);

    const disabled = await api('PATCH', `/v1/webhook-endpoints/${paused.id}`, { key: admin.token, body: { status: 'disabled' } });
    expect(disabled.status).toBe(200);
    expect(await deliveriesOf(paused.id, 'pending')).toEqual([]);
    const canceled = await deliveriesOf(paused.id, 'canceled');
    expect(canceled).toHaveLength(2);
    const stored = await testDb().webhookDelivery.findMany({ where: { endpointId: paused.id } });
    expect(stored.map((d) => [d.status, d.nextAttemptAt, d.leasedUntil])).toEqual(Array(2).fill(['canceled', null, null]));

    // While disabled, nothing can be queued for it: no test event, no replay.
    const test = await api('POST', `/v1/webhook-endpoints/${paused.id}/test-events`, { key: admin.token });
    expect(test.status).toBe(409);
    expect(test.body.error.message).toMatch(/is disabled: enable it/);
    expect((await api('POST', `/v1/webhook-deliveries/${canceled[0].id}/replay`, { key: admin.token })).status).toBe(409);
    expect((await api('POST', `/v1/webhook-endpoints/${paused.id}/replays`, { key: admin.token, body: { since, dryRun: true } })).status).toBe(409);

    // Enabled again: one bulk replay queues both canceled deliveries anew; a second queues nothing.
    expect((await api('PATCH', `/v1/webhook-endpoints/${paused.id}`, { key: admin.token, body: { status: 'enabled' } })).status).toBe(200);
    const replayed = await api('POST', `/v1/webhook-endpoints/${paused.id}/replays`, { key: admin.token, body: { since, dryRun: false } });
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toMatchObject({ matched: 2, replayed: 2 });
    expect(await deliveriesOf(paused.id, 'pending')).toHaveLength(2);
    const again = await api('POST', `/v1/webhook-endpoints/${paused.id}/replays`, { key: admin.token, body: { since, dryRun: false } });
    expect(again.body.data).toMatchObject({ matched: 0, replayed: 0 });
  });

  it('takes `canceled` as a status filter and documents it', async () => {
    expect((await api('GET', '/v1/webhook-deliveries?status=canceled', { key: admin.token })).status).toBe(200);
    expect((await api('GET', '/v1/webhook-deliveries?status=cancelled', { key: admin.token })).status).toBe(400);
    const doc = (await api('GET', '/v1/openapi.json')).body;
    const status = doc.paths['/v1/webhook-deliveries'].get.parameters.find((p: { name: string }) => p.name === 'status');
    expect(status.schema.enum).toContain('canceled');
    expect(doc.components.schemas.WebhookDelivery.properties.status.enum).toContain('canceled');
  });
});

describe('deleting an endpoint, with the delivery routine', () => {
  const T0 = new Date('2031-01-01T00:00:00Z');
  const bed = webhookTestbed(T0, { settled: true });
  const { receivers, system, asAdmin, at } = bed;

  async function endpointWith(status: number | (() => number)) {
    const r = await startReceiver(typeof status === 'number' ? () => status : status);
    receivers.push(r);
    const { endpoint } = await createEndpoint(asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: r.url, eventTypes: ['webhook.test'] });
    return { r, endpoint };
  }

  const testEvents = async (endpointId: string, n: number) => {
    const deliveries = [];
    for (let i = 0; i < n; i++) deliveries.push(await sendTestEvent(system(), { endpoint: await requireEndpoint(asAdmin(), { endpointId }) }));
    return deliveries;
  };

  it('a failing endpoint’s deliveries waiting for a retry are canceled, keep their attempts and are never claimed again', async () => {
    const { r, endpoint } = await endpointWith(500);
    await testEvents(endpoint.id, 3);
    await runWebhookJobs(system());
    expect(r.received).toHaveLength(3);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'pending', attemptCount: 1 } })).toBe(3);

    await deleteEndpoint(asAdmin(at(1_000)), { endpointId: endpoint.id });
    const rows = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: true } });
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'canceled', canceledAt: at(1_000), nextAttemptAt: null, leasedUntil: null, attemptCount: 1 });
      expect(row.attempts).toHaveLength(1);
    }
    for (const delay of RETRY_DELAYS_MS) {
      expect(await claimDueDeliveries(system(at(delay + 3_600_000)))).toEqual([]);
      await runWebhookJobs(system(at(delay + 3_600_000)));
    }
    expect(r.received).toHaveLength(3);
  });

  it('deliveries claimed before the deletion are canceled, and their claim sends none of them', async () => {
    const { r, endpoint } = await endpointWith(200);
    await testEvents(endpoint.id, 5);
    const [group] = await claimDueDeliveries(system());
    expect(group.deliveryIds).toHaveLength(5);
    await deleteEndpoint(asAdmin(), { endpointId: endpoint.id });
    await deliverGroup(system(), { group, window: new SendWindow(bed.db, SEND_WINDOW, undefined, 0) });
    expect(r.received).toHaveLength(0);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'canceled', leasedUntil: null } })).toBe(5);
  });

  it('a claim whose endpoint was deleted without canceling (an older version) cancels instead of handing back', async () => {
    const { r, endpoint } = await endpointWith(200);
    await testEvents(endpoint.id, 4);
    const [group] = await claimDueDeliveries(system());
    await bed.db.$executeRaw`UPDATE webhook_endpoints SET deleted_at = ${T0}, status = 'disabled' WHERE id = ${endpoint.id}::uuid`;
    await deliverGroup(system(), { group, window: new SendWindow(bed.db, SEND_WINDOW, undefined, 0) });
    expect(r.received).toHaveLength(0);
    const rows = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(rows.map((d) => [d.status, d.leasedUntil, d.nextAttemptAt])).toEqual(Array(4).fill(['canceled', null, null]));
  });

  it('a delivery born pending for an endpoint deleted meanwhile is never claimed, and the minute job cancels it', async () => {
    const { r, endpoint } = await endpointWith(200);
    await deleteEndpoint(asAdmin(), { endpointId: endpoint.id });
    // What a fan-out that read the endpoint just before the deletion committed writes after it.
    const eventId = await recordEvent({ db: bed.db, now: T0 }, { type: 'webhook.test', workspaceId: bed.tenant.workspaceId, environmentId: null, data: {} });
    await bed.db.webhookDelivery.create({ data: { endpointId: endpoint.id, eventId, eventType: 'webhook.test', nextAttemptAt: T0, createdAt: T0, updatedAt: T0 } });
    expect(await claimDueDeliveries(system(at(1_000)))).toEqual([]);
    expect(await runMinuteJobs(system(at(60_000)))).toMatchObject({ deliveriesCanceled: 1 });
    const [row] = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(row).toMatchObject({ status: 'canceled', canceledAt: at(60_000), nextAttemptAt: null });
    expect(await runMinuteJobs(system(at(120_000)))).toMatchObject({ deliveriesCanceled: 0 });
    await runWebhookJobs(system(at(120_000)));
    expect(r.received).toHaveLength(0);
  });

  it('a deletion that deadlocks with another writer of its deliveries is retried, and still cancels them all', async () => {
    const { endpoint } = await endpointWith(200);
    const ids = (await testEvents(endpoint.id, 4)).map((d) => d.id).sort();
    const other = new pg.Client({ connectionString: bed.databaseUrl });
    await other.connect();
    try {
      // The deletion locks its deliveries in id order; this writer holds the last and then asks
      // for the first. Its long deadlock_timeout makes the deletion the one PostgreSQL ends.
      await other.query("SET deadlock_timeout = '10s'");
      await other.query('BEGIN');
      await other.query('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [ids.at(-1)]);
      const deleting = deleteEndpoint(asAdmin(), { endpointId: endpoint.id });
      await eventually(async () => {
        const waiting = await bed.db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%canceled%' AND datname = current_database()`;
        return waiting[0].n === 1;
      }, 30_000); // the deletion's first statements: seconds on a loaded machine
      await other.query('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [ids[0]]);
      await other.query('COMMIT');
      await deleting;
    } finally {
      await other.end();
    }
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'canceled' } })).toBe(4);
  }, 60_000); // the bound above, the deadlock's detection and the retry, on a loaded machine
});
