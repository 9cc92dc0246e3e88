import { describe, expect, it } from 'vitest';
import { recordEvent } from '../../lib/events/record-event';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { api } from '../support/api-client';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { startReceiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { replayDelivery } from '../../lib/webhooks/replay-delivery';
import { requireDelivery } from '../../lib/webhooks/require-delivery';
import { COMPRESSED_RETRY_DELAYS_MS, MAX_ATTEMPTS } from '../../lib/webhooks/retry-schedule';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { webhookTestbed } from '../support/webhook-testbed';

/**
 * A Test endpoint set to fail: each attempt fails as set instead of being sent, on the real
 * schedule (or the compressed one), until the setting runs out or is switched off.
 */
const T0 = new Date('2031-05-01T00:00:00Z');
const bed = webhookTestbed(T0, { settled: true });

async function testEndpoint() {
  const receiver = await startReceiver();
  bed.receivers.push(receiver);
  const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'test', url: receiver.url });
  return { receiver, endpoint };
}

async function emitTestEvent() {
  return recordEvent(
    { db: bed.db, now: T0 },
    { type: 'api_key.created', workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments.test, data: {} },
  );
}

const deliveryOf = (eventId: string, endpointId: string) => bed.db.webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId }, include: { attempts: { orderBy: { number: 'asc' } } } });

describe('test failures on a Test endpoint', () => {
  it('fails the next two attempts with 503 on the compressed schedule, then sends the third for real', async () => {
    const { receiver, endpoint } = await testEndpoint();
    const updated = await updateEndpoint(bed.asAdmin(), {
      endpointId: endpoint.id,
      changes: { testFailure: { mode: 'status', status: 503, remaining: 2 }, compressedRetries: true },
    });
    expect(updated).toMatchObject({ testFailure: { mode: 'status', status: 503, remaining: 2 }, compressedRetries: true });

    const eventId = await emitTestEvent();
    await runWebhookJobs(bed.system());
    let delivery = await deliveryOf(eventId, endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ number: 1, responseStatus: 503 });
    expect(delivery.attempts[0].responseExcerpt).toMatch(/Simulated.*503.*1 more after this one.*nothing was sent/);
    // Retried after 2 seconds, not 30.
    expect(delivery.nextAttemptAt!.getTime() - delivery.attempts[0].startedAt.getTime()).toBe(COMPRESSED_RETRY_DELAYS_MS[0]);

    await runWebhookJobs(bed.system(delivery.nextAttemptAt!));
    delivery = await deliveryOf(eventId, endpoint.id);
    expect(delivery.attempts.map((a) => a.responseStatus)).toEqual([503, 503]);
    expect(delivery.nextAttemptAt!.getTime() - delivery.attempts[1].startedAt.getTime()).toBe(COMPRESSED_RETRY_DELAYS_MS[1]);
    expect(receiver.received).toHaveLength(0);
    // The setting ran out with its last failure.
    expect((await bed.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).testFailureMode).toBeNull();

    await runWebhookJobs(bed.system(delivery.nextAttemptAt!));
    delivery = await deliveryOf(eventId, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 3 });
    expect(receiver.received).toHaveLength(1);
    await updateEndpoint(bed.asAdmin(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  });

  it('times out every attempt until switched off: the delivery is exhausted, and its replay is sent once the setting is off', async () => {
    const { receiver, endpoint } = await testEndpoint();
    await updateEndpoint(bed.asAdmin(), { endpointId: endpoint.id, changes: { testFailure: { mode: 'timeout', remaining: null }, compressedRetries: true } });
    const eventId = await emitTestEvent();
    let due = T0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await runWebhookJobs(bed.system(due));
      const delivery = await deliveryOf(eventId, endpoint.id);
      expect(delivery.attempts).toHaveLength(attempt);
      expect(delivery.attempts[attempt - 1].error).toMatch(/timed out after 10 s \(simulated/);
      if (delivery.nextAttemptAt) due = delivery.nextAttemptAt;
    }
    expect((await deliveryOf(eventId, endpoint.id)).status).toBe('exhausted');
    expect(receiver.received).toHaveLength(0);

    await updateEndpoint(bed.asAdmin(), { endpointId: endpoint.id, changes: { testFailure: null } });
    const original = await deliveryOf(eventId, endpoint.id);
    await replayDelivery(bed.system(due), { delivery: await requireDelivery(bed.asAdmin(), { deliveryId: original.id }) });
    await runWebhookJobs(bed.system(due));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('PATCH /v1/webhook-endpoints/{id} with test failures', () => {
  it('sets and clears them on a Test endpoint, and refuses them on a Live one', async () => {
    const tenant = await createTenant();
    const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
    const as = { key: admin.token };
    const create = (environment: 'test' | 'live') =>
      api('POST', '/v1/webhook-endpoints', { ...as, body: { projectId: tenant.projectId, environment, url: 'https://hooks.example.test/e' } });
    const test = (await create('test')).body.data.endpoint;
    const live = (await create('live')).body.data.endpoint;
    expect(test).toMatchObject({ testFailure: null, compressedRetries: false });

    const set = await api('PATCH', `/v1/webhook-endpoints/${test.id}`, { ...as, body: { testFailure: { mode: 'status', remaining: 3 }, compressedRetries: true } });
    expect(set.status).toBe(200);
    expect(set.body.data.endpoint).toMatchObject({ testFailure: { mode: 'status', status: 500, remaining: 3 }, compressedRetries: true });
    const cleared = await api('PATCH', `/v1/webhook-endpoints/${test.id}`, { ...as, body: { testFailure: null, compressedRetries: false } });
    expect(cleared.body.data.endpoint).toMatchObject({ testFailure: null, compressedRetries: false });

    const refused = await api('PATCH', `/v1/webhook-endpoints/${live.id}`, { ...as, body: { testFailure: { mode: 'timeout' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('Only a Test endpoint') });
    const compressedLive = await api('PATCH', `/v1/webhook-endpoints/${live.id}`, { ...as, body: { compressedRetries: true } });
    expect(compressedLive.status).toBe(400);
    const badStatus = await api('PATCH', `/v1/webhook-endpoints/${test.id}`, { ...as, body: { testFailure: { mode: 'status', status: 200 } } });
    expect(badStatus.status).toBe(400);
  });
});
