import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordEvent } from '../../lib/events/record-event';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { eventually } from '../../lib/testing/eventually';
import { heldAnswers, startReceiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { LEASE_MS } from '../../lib/webhooks/claims';
import { MARKED_UNSENT_AT_MOST } from '../../lib/webhooks/deliver-due-webhooks';
import { DEFAULT_SEND_WINDOW } from '../../lib/webhooks/send-window';
import { getDelivery } from '../../lib/webhooks/get-delivery';
import { requireDelivery } from '../../lib/webhooks/require-delivery';
import { deliveryViewSchema } from '../../lib/webhooks/schemas';
import { LOST_ATTEMPT_ERROR } from '../../lib/webhooks/store';
import { updateEndpoint } from '../../lib/webhooks/update-endpoint';
import { webhookTestbed } from '../support/webhook-testbed';

/**
 * Issue 39: after a kill -9 under load, some deliveries had an attempt #2 and no #1. Each
 * attempt is now recorded before its request is sent; here the service's runner, in a process of
 * its own, is killed with SIGKILL while a window of sends is in flight, and another worker takes
 * its deliveries over once its lease has run out.
 */
const T0 = new Date('2034-01-01T00:00:00Z');
const bed = webhookTestbed(T0, { settled: true });
const EVENTS = 50;

/** Attempt numbers that should be there and are not: 1..highest, per delivery. */
const gaps = (numbers: number[]) => Math.max(0, ...numbers) - numbers.length;

describe('attempt history after a crash', () => {
  it('a sender killed with SIGKILL mid-send: every attempt numbered in order with no gaps, those whose outcome was lost say so', async () => {
    const held = heldAnswers();
    let crashed = false;
    const receiver = await startReceiver(() => (crashed ? 200 : held.answer()));
    bed.receivers.push(receiver);
    const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['business.branding_updated'] });
    // Due now: the sender runs on the real clock.
    for (let n = 0; n < EVENTS; n++) {
      await recordEvent({ db: bed.db, now: new Date() }, { type: 'business.branding_updated', workspaceId: bed.tenant.workspaceId, projectId: bed.tenant.projectId, environmentId: bed.tenant.environments.live, data: { n } });
    }

    const sender = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'crash-sender.ts')], {
      env: { ...process.env, DATABASE_URL: bed.databaseUrl, LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => sender.once('exit', () => resolve()));
    try {
      // Nothing answers: the backlog widens the window, and a whole window is in flight. The bound
      // covers the sender's start (a Node process loading TypeScript), over 30 s under CI's load.
      await eventually(() => receiver.load.inFlight === DEFAULT_SEND_WINDOW, 75_000, 20);
      const inFlight = await bed.db.webhookAttempt.findMany({ where: { delivery: { endpointId: endpoint.id } } });
      expect(inFlight.length).toBeGreaterThanOrEqual(DEFAULT_SEND_WINDOW); // recorded before they were sent
      expect(inFlight.every((a) => a.state === 'sending' && a.number === 1 && a.latencyMs === null)).toBe(true);
    } finally {
      sender.kill('SIGKILL');
      await exited;
    }
    crashed = true;
    const sentBeforeCrash = new Set(receiver.received.map((r) => String(r.headers['service-delivery-id'])));
    expect(sentBeforeCrash.size).toBe(DEFAULT_SEND_WINDOW);
    held.release(); // their connections died with the sender

    // Another worker takes the deliveries over once the dead one's lease has run out.
    await runWebhookJobs(bed.system(new Date(Date.now() + LEASE_MS + 1_000)));

    const deliveries = await bed.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: { orderBy: { number: 'asc' } } } });
    expect(deliveries).toHaveLength(EVENTS);
    expect(deliveries.every((d) => d.status === 'succeeded')).toBe(true);
    expect(deliveries.reduce((n, d) => n + gaps(d.attempts.map((a) => a.number)), 0), 'attempt numbers missing').toBe(0);
    expect(deliveries.flatMap((d) => d.attempts).filter((a) => a.state === 'sending')).toEqual([]);
    const lost = deliveries.filter((d) => d.attempts.some((a) => a.state === 'lost'));
    // Every send in flight when the sender died, and at most those it had marked ahead of the
    // last one and not yet sent (how many of those marks committed before the kill is timing).
    expect(lost.filter((d) => sentBeforeCrash.has(d.id))).toHaveLength(DEFAULT_SEND_WINDOW);
    expect(lost.length).toBeLessThanOrEqual(DEFAULT_SEND_WINDOW + MARKED_UNSENT_AT_MOST);
    for (const d of lost) {
      expect(d.attempts.map((a) => [a.number, a.state, a.responseStatus, a.latencyMs, a.error])).toEqual([
        [1, 'lost', null, null, LOST_ATTEMPT_ERROR],
        [2, 'ended', 200, expect.any(Number), null],
      ]);
    }
    for (const d of deliveries.filter((d) => !lost.includes(d))) expect(d.attempts.map((a) => [a.number, a.state])).toEqual([[1, 'ended']]);
    // Each re-send said it might be a second one; the receiver got the first of those in flight.
    for (const d of lost) {
      const got = receiver.received.filter((r) => r.headers['service-delivery-id'] === d.id).map((r) => r.headers['service-attempt']);
      expect(got).toEqual(sentBeforeCrash.has(d.id) ? ['1', '2'] : ['2']);
    }

    // The API's attempt view, as GET /v1/webhook-deliveries/{id} answers it.
    const [one] = lost;
    const view = deliveryViewSchema.parse(await getDelivery(bed.asAdmin(), { deliveryId: (await requireDelivery(bed.asAdmin(), { deliveryId: one.id })).id }));
    expect(view.attempts).toMatchObject([
      { number: 1, state: 'lost', error: 'no answer recorded: the process stopped', responseStatus: null, latencyMs: null },
      { number: 2, state: 'ended', error: null, responseStatus: 200 },
    ]);
    expect(view.attemptCount).toBe(2);
    await updateEndpoint(bed.system(), { endpointId: endpoint.id, changes: { status: 'disabled' } });
  }, 180_000); // the sender's start (the 75 s bound above), then the take-over's 50 sends
});
