import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../lib/testing/eventually';
import { startReceiver } from '../../lib/testing/https-receiver';
import { webhookTestbed } from '../support/webhook-testbed';
import { claimDueDeliveries } from '../../lib/webhooks/claims';
import { deliverGroup } from '../../lib/webhooks/deliver-due-webhooks';
import { SendWindow, webhookWindow } from '../../lib/webhooks/send-window';

const SEND_WINDOW = webhookWindow().size;
import { sendTestEvent } from '../../lib/webhooks/send-test-event';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { requireEndpoint } from '../../lib/webhooks/require-endpoint';

describe('disabling while a claimed send is in flight', () => {
  const T0 = new Date('2032-01-01T00:00:00Z');
  const bed = webhookTestbed(T0, { settled: true });

  it('a send recorded as failed between the disabling’s cancel and its commit is still canceled', async () => {
    const r = await startReceiver(() => 500);
    bed.receivers.push(r);
    const { endpoint } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: r.url, eventTypes: ['webhook.test'] });
    await sendTestEvent(bed.system(), { endpoint: await requireEndpoint(bed.asAdmin(), { endpointId: endpoint.id }) });
    const [group] = await claimDueDeliveries(bed.system());
    expect(group.deliveryIds).toHaveLength(1);

    // The PATCH's transaction (updateEndpoint): endpoint locked and disabled, its unleased pending deliveries canceled, not yet committed.
    const patch = new pg.Client({ connectionString: bed.databaseUrl });
    await patch.connect();
    try {
      await patch.query('BEGIN');
      await patch.query('SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [endpoint.id]);
      await patch.query(`UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1`, [endpoint.id]);
      const cancel = await patch.query(
        `UPDATE webhook_deliveries SET status = 'canceled', canceled_at = $2, next_attempt_at = NULL, leased_until = NULL, lease_token = NULL
           WHERE endpoint_id = $1 AND status = 'pending' AND (leased_until IS NULL OR leased_until < $2)`,
        [endpoint.id, T0],
      );
      expect(cancel.rowCount).toBe(0); // the claimed one is left to its sender

      // The sender sends (the read sees the endpoint still enabled), records the failure and cancels what it can.
      const delivering = deliverGroup(bed.system(), { group, window: new SendWindow(bed.db, SEND_WINDOW, undefined, 0) });
      let settled = false;
      void delivering.then(() => (settled = true), () => (settled = true));
      // A send, its record and a handshake: seconds on a loaded machine.
      await eventually(async () => (await bed.db.webhookAttempt.count({ where: { deliveryId: group.deliveryIds[0], state: 'ended' } })) === 1, 30_000);
      // The sender's cancel waits on the PATCH's lock (it reads the endpoint under KEY SHARE), or it
      // ended without waiting: seen in PostgreSQL rather than given half a second, which a loaded
      // machine may not be enough for (the commit would then come first, and the race go untested).
      const [{ pid }] = (await patch.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      await eventually(
        async () => settled || (await bed.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`)[0].n > 0,
        30_000,
      );
      await patch.query('COMMIT');
      await delivering;
    } finally {
      await patch.end();
    }
    const [row] = await bed.db.$queryRaw<Record<string, unknown>[]>`
      SELECT status::text, attempt_count, attempts_started, leased_until, lease_token, next_attempt_at FROM webhook_deliveries WHERE id = ${group.deliveryIds[0]}::uuid`;
    expect(r.received).toHaveLength(1);
    expect(row).toMatchObject({ status: 'canceled', leased_until: null, lease_token: null, next_attempt_at: null });
  });
});
