import { describe, expect, it } from 'vitest';
import { recordEvent } from '../../lib/events/record-event';
import { startInProcessRunner } from '../../lib/jobs/in-process-runner';
import { eventually } from '../../lib/testing/eventually';
import { startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { DEFAULT_SEND_WINDOW, webhookWindow } from '../../lib/webhooks/deliver-due-webhooks';
import { RETRY_DELAYS_MS } from '../../lib/webhooks/retry-schedule';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { countWebhookAttempts } from '../../lib/overview/store';
import { webhookTestbed } from '../support/webhook-testbed';

/**
 * Issue 31's window: a receiver that takes 200 ms per answer still gets a busy stream, because
 * up to a window of sends to one endpoint are in flight at once; they start in outbox order, and
 * a failure waits for its retry without holding the others.
 */
const T0 = new Date('2033-01-01T00:00:00Z');
const bed = webhookTestbed(T0, { settled: true });
const EVENTS = 500;
const FAILING = 250;

describe('a window of sends per endpoint', () => {
  it(`500 events to a receiver answering in 200 ms: ${DEFAULT_SEND_WINDOW} in flight, first attempts started in outbox order, a failure retried without stalling the rest`, async () => {
    expect(webhookWindow().size).toBe(DEFAULT_SEND_WINDOW);
    let receiver: Receiver | undefined;
    let failedOnce = false;
    receiver = await startReceiver((i) => {
      if (!failedOnce && JSON.parse(receiver!.received[i].rawBody).data.n === FAILING) {
        failedOnce = true;
        return { status: 503, afterMs: 200 };
      }
      return { status: 200, afterMs: 200 };
    });
    bed.receivers.push(receiver);
    const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['business.branding_updated'] });
    const ids: string[] = [];
    for (let n = 0; n < EVENTS; n++) {
      ids.push(
        await recordEvent({ db: bed.db, now: T0 }, { type: 'business.branding_updated', workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments.live, data: { n } }),
      );
    }
    const started = Date.now();
    let skipped = 0;
    const runner = startInProcessRunner({ db: bed.db, clock: () => new Date(T0.getTime() + (Date.now() - started) + skipped), tickMs: 50, minuteMs: 3_600_000 });
    let firstPassMs = 0;
    try {
      await eventually(() => (receiver.received.length >= EVENTS ? true : undefined), 60_000, 50);
      firstPassMs = Date.now() - started;
      await eventually(async () => ((await bed.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })) >= EVENTS ? true : undefined), 30_000, 50);
      skipped = RETRY_DELAYS_MS[0] + 1_000; // the clock moves past the failed one's retry
      await eventually(() => (receiver.received.length >= EVENTS + 1 ? true : undefined), 30_000, 50);
    } finally {
      await runner.stop();
    }

    // Several in flight at once, never more than the window.
    expect(receiver.load.peakInFlight).toBeGreaterThan(1);
    expect(receiver.load.peakInFlight).toBeLessThanOrEqual(DEFAULT_SEND_WINDOW);
    // 500 round trips of 200 ms one at a time would take 100 s.
    expect(firstPassMs).toBeLessThan(30_000);

    // First attempts started in outbox order: by event seq, their start times never go back.
    const firsts = await bed.db.webhookAttempt.findMany({
      where: { number: 1, delivery: { endpointId: endpoint.id } },
      select: { startedAt: true, responseStatus: true, delivery: { select: { event: { select: { id: true, seq: true } } } } },
    });
    expect(firsts).toHaveLength(EVENTS);
    const bySeq = [...firsts].sort((a, b) => Number(a.delivery.event.seq - b.delivery.event.seq));
    expect(bySeq.map((a) => a.delivery.event.id)).toEqual(ids);
    const wentBack = bySeq.filter((a, i) => i > 0 && a.startedAt < bySeq[i - 1].startedAt).length;
    expect(wentBack, 'first attempts that started before an earlier event’s').toBe(0);

    // The failure did not hold the window: every later event was answered before its retry.
    expect(bySeq[FAILING].responseStatus).toBe(503);
    const retry = await bed.db.webhookAttempt.findFirstOrThrow({ where: { number: 2, delivery: { eventId: ids[FAILING], endpointId: endpoint.id } } });
    expect(retry.responseStatus).toBe(200);
    expect(bySeq.slice(FAILING + 1).every((a) => a.responseStatus === 200 && a.startedAt < retry.startedAt)).toBe(true);
    expect(await bed.db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'succeeded' } })).toBe(EVENTS);

    // The Overview's hourly rollup, kept with the attempts, equals them: 501 attempts, 500 acknowledged.
    const environmentId = bed.tenant.environments.live;
    const raw = await bed.db.webhookAttempt.groupBy({ by: ['responseStatus'], where: { delivery: { endpoint: { environmentId } } }, _count: true });
    const rolled = await bed.db.webhookAttemptHourly.findMany({ where: { environmentId } });
    const sum = (rows: { attempts: bigint }[]) => rows.reduce((n, r) => n + Number(r.attempts), 0);
    expect(sum(rolled)).toBe(raw.reduce((n, r) => n + r._count, 0));
    expect(sum(rolled.filter((r) => r.succeeded))).toBe(raw.filter((r) => r.responseStatus !== null && r.responseStatus >= 200 && r.responseStatus < 300).reduce((n, r) => n + r._count, 0));
    expect(await countWebhookAttempts(bed.db, environmentId, T0)).toEqual({ attempts: EVENTS + 1, succeeded: EVENTS });
    await updateEndpoint(bed.system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 120_000);
});
