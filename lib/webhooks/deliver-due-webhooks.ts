import { randomUUID } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { logger } from '../observability/logger';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { claimDueDeliveries, LEASE_RENEW_MS, releaseEndpoint, renewLease, type ClaimedGroup } from './claims';
import { deliveryBody } from './envelope';
import { openSecret } from '../sealing/sealing-key';
import { ATTEMPT_TIMEOUT_MS, sendWebhook } from './send-webhook';
import { SendWindow, webhookWindow, type AttemptResult } from './send-window';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { MARK_AHEAD, markAttemptsStarted, readDeliveryStanding, readEndpointReceiving, releaseDeliveryLeases } from './store';
import { takeTestFailure } from './test-failures';
import { privateTargetsAllowed } from './target-policy';

// Sending claimed deliveries (lib/webhooks/claims.ts) through their endpoint's window
// (lib/webhooks/send-window.ts): a pass of the in-process runner, and the Inngest function's step.

/**
 * An attempt starts only while its lease covers its timeout and this long to record it (a lease
 * short of it is renewed first): a live worker's send never outlasts its lease, so nobody else
 * sends the same delivery meanwhile.
 */
const RECORD_MARGIN_MS = 1_000;
/**
 * Marks a claim's attempts as started before they are sent: the claim marks the first
 * MARK_AHEAD of its endpoint, and the next MARK_AHEAD at a time are marked in one statement
 * while earlier sends are still in flight. Service-Attempt counts every attempt
 * started, so a delivery re-sent after its worker died mid-send says so. A crash can count
 * attempts of an endpoint that were marked but not sent: at most MARKED_UNSENT_AT_MOST beyond
 * the last send started; deliveries handed back unsent are unmarked.
 */
/**
 * Taking delivery i marks [i, i + MARK_AHEAD) and [i + ⌈MARK_AHEAD/2⌉, i + ⌈MARK_AHEAD/2⌉ + MARK_AHEAD):
 * a sender killed right after taking i leaves up to this many marked beyond it (11 for 8 ahead).
 */
export const MARKED_UNSENT_AT_MOST = Math.ceil(MARK_AHEAD / 2) + MARK_AHEAD - 1;

class StartMarks {
  private readonly numbers = new Map<string, Promise<number | null>>();

  constructor(
    private readonly db: DbOrTx,
    private readonly group: ClaimedGroup,
    private readonly clock: () => Date,
  ) {
    for (const row of group.deliveries) if (row.started_number !== null) this.numbers.set(row.id, Promise.resolve(row.started_number));
  }

  /** The attempt number of the group's `index`-th delivery (null: no longer this claim's). */
  take(index: number): Promise<number | null> {
    this.mark(index);
    this.mark(index + Math.ceil(MARK_AHEAD / 2)); // the next ones, while this one is sent
    return this.numbers.get(this.group.deliveryIds[index])!;
  }

  /** Deliveries marked, whatever became of their send. */
  get marked(): string[] {
    return [...this.numbers.keys()];
  }

  private mark(index: number): void {
    const first = this.group.deliveryIds[index];
    if (first === undefined || this.numbers.has(first)) return; // past the end, or marked already
    const ids = this.group.deliveryIds.slice(index, index + MARK_AHEAD).filter((id) => !this.numbers.has(id));
    const marking = markAttemptsStarted(this.db, ids, this.group.leaseToken, this.clock());
    for (const id of ids) this.numbers.set(id, marking.then((numbers) => numbers.get(id) ?? null));
  }
}

/**
 * Sends one endpoint's claimed deliveries through a window (a new one unless the caller shares
 * one across claims): they start in outbox order, as many at once as the window allows. `ctx.now`
 * is the claim's clock reading; each attempt is stamped (and signed) when it is sent, by `clock`:
 * the caller's, or `now` plus the time since.
 */
export async function deliverGroup(
  ctx: VerbContext,
  { group, window = new SendWindow(ctx.db), clock: callerClock }: { group: ClaimedGroup; window?: SendWindow; clock?: () => Date },
): Promise<void> {
  const { db, now } = ctx;
  const started = performance.now();
  const clock = callerClock ?? (() => new Date(now.getTime() + Math.round(performance.now() - started)));
  window.claimed(group.endpoint, started);
  const secrets = new Map<string, string>(); // sealed -> opened, once per group
  const open = (sealed: string) => secrets.get(sealed) ?? secrets.set(sealed, openSecret(sealed)).get(sealed)!;
  const handedBack: string[] = [];
  const sent = new Set<string>();
  let failed = false;
  const marks = new StartMarks(db, group, clock);
  const renewal = setInterval(() => void renewLease(db, group, clock()), LEASE_RENEW_MS);
  renewal.unref();
  /** Whether the lease covers an attempt starting now, renewing it first if it falls short. */
  const leaseCoversAttempt = async () => {
    const covers = () => clock().getTime() + ATTEMPT_TIMEOUT_MS + RECORD_MARGIN_MS <= group.leasedUntil.getTime();
    if (!covers()) await renewLease(db, group, clock());
    return covers();
  };
  await Promise.all(
    group.deliveries.map(async (row, index) => {
      let attempt: AttemptResult | undefined;
      await window.run(async (start) => {
        try {
          const endpoint = window.closed ? null : await window.endpoint(group.endpointId);
          if (!endpoint || !(await leaseCoversAttempt())) {
            // Stopping, the endpoint disabled or deleted since the claim, or the lease could not
            // be renewed: hand it back unsent (canceled if the endpoint is disabled or deleted).
            handedBack.push(row.id);
            return;
          }
          const number = await marks.take(index);
          if (number === null) return; // settled or taken over meanwhile: not ours to send
          await start(); // after the endpoint's earlier deliveries have gone out; from here to the send nothing waits
          const attemptAt = window.stamp(clock());
          const signingSecrets = [open(endpoint.secret_ciphertext)];
          if (endpoint.previous_secret_ciphertext && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > attemptAt) {
            signingSecrets.push(open(endpoint.previous_secret_ciphertext));
          }
          const body = deliveryBody({ id: row.event_id, type: row.type, version: row.version, createdAt: row.created_at, businessId: row.business_id, data: row.data });
          const requestHeaders = {
            'content-type': 'application/json',
            'user-agent': 'QuotePricingService-Webhooks/1',
            'Service-Event-Id': row.event_id,
            'Service-Delivery-Id': row.id,
            'Service-Attempt': String(number),
            [SIGNATURE_HEADER]: signatureHeader(signingSecrets, Math.floor(attemptAt.getTime() / 1000), body),
          };
          sent.add(row.id);
          // A Test endpoint set to fail takes its failure instead of a send (test-failures.ts).
          const simulated = endpoint.test_failure_mode ? await takeTestFailure(db, group.endpointId) : null;
          const result = simulated ?? (await sendWebhook(endpoint.url, body, requestHeaders, { allowPrivateTargets: privateTargetsAllowed() }));
          attempt = { deliveryId: row.id, leaseToken: group.leaseToken, number, startedAt: attemptAt, requestHeaders, result };
          if (result.status === null || result.status < 200 || result.status >= 300) failed = true;
        } catch (error) {
          // The lease runs out and another pass retries; one bad row must not stop the others.
          logger.error({ err: error, deliveryId: row.id }, 'webhook attempt could not be made');
        }
      }, () => clock().getTime() - row.due_at.getTime());
      if (attempt) await window.record(attempt);
    }),
  ).finally(() => clearInterval(renewal));
  if (handedBack.length > 0) {
    const unsentMarked = marks.marked.filter((id) => !sent.has(id));
    await releaseLeases({ ...ctx, now: clock() }, group, handedBack, unsentMarked);
  } else if (failed) {
    // Sends in flight when the endpoint was disabled or deleted were recorded as failures after
    // the disabling canceled the rest: they are canceled now rather than by the minute job.
    await cancelUndeliverable({ ...ctx, now: clock() }, group.endpointId);
  }
}

/**
 * One pass for tests and tools: claim, send every group (endpoints in parallel, each in order),
 * then give the endpoints' send leases back.
 */
export async function deliverDueWebhooks(ctx: VerbContext, { limit = 100 }: { limit?: number } = {}): Promise<{ attempted: number }> {
  const owner = randomUUID();
  const groups = await claimDueDeliveries(ctx, { limit, owner });
  await Promise.all(
    groups.map((group) =>
      deliverGroup(ctx, { group }).finally(() => releaseEndpoint(ctx, { endpointId: group.endpointId, owner, lastLease: group.leasedUntil })),
    ),
  );
  return { attempted: groups.reduce((n, g) => n + g.deliveryIds.length, 0) };
}

/** Where one delivery stands after a pass, and when a pass should look at it again (ISO; null once settled). */
export type DeliveryProgress = { status: 'pending' | 'succeeded' | 'exhausted' | 'canceled' | 'missing'; retryAt: string | null; attempted: number };

/** How long a pass waits before looking again at a delivery whose endpoint another worker holds. */
const HELD_RECHECK_MS = 30_000;

/**
 * One pass for a single delivery (the Inngest engine's step): sends its endpoint's due
 * deliveries up to and including it, in outbox order, as one claim under `owner`, and says where
 * it stands: settled, or pending with the moment to look again — its next attempt, the end of
 * another worker's lease on it, or soon if another worker holds its endpoint (which sends it).
 */
export async function deliverThrough(
  ctx: VerbContext,
  { deliveryId, owner = randomUUID() }: { deliveryId: string; owner?: string },
): Promise<DeliveryProgress> {
  const { db, now } = ctx;
  const started = performance.now();
  const groups = await claimDueDeliveries(ctx, { owner, through: deliveryId, maxEndpoints: 1, limit: webhookWindow().claimPerEndpoint });
  for (const group of groups) {
    await deliverGroup(ctx, { group }).finally(() => releaseEndpoint(ctx, { endpointId: group.endpointId, owner, lastLease: group.leasedUntil }));
  }
  const attempted = groups.reduce((n, g) => n + g.deliveryIds.length, 0);
  const at = new Date(now.getTime() + Math.round(performance.now() - started));
  const row = await readDeliveryStanding(db, deliveryId, owner);
  if (!row) return { status: 'missing', retryAt: null, attempted };
  if (row.status !== 'pending') return { status: row.status, retryAt: null, attempted };
  const later = (time: Date | null) => (time && time > at ? time : null);
  const retryAt =
    later(row.next_attempt_at) ??
    later(row.leased_until) ??
    (row.held_by_other && later(row.send_lease_until)
      ? new Date(Math.min(row.send_lease_until!.getTime(), at.getTime() + HELD_RECHECK_MS))
      : at); // due and free (more than a claim's worth came before it): at once
  return { status: 'pending', retryAt: retryAt.toISOString(), attempted };
}

/**
 * Hands unsent deliveries back at once rather than when their lease runs out. If their endpoint
 * has been disabled or deleted, its pending deliveries are canceled instead (disabling or
 * deleting it normally has done so already).
 */
async function releaseLeases(ctx: VerbContext, group: ClaimedGroup, deliveryIds: string[], markedUnsent: string[]) {
  logger.warn({ deliveryIds }, 'webhook deliveries handed back unsent (stopping, endpoint disabled or deleted, or their lease could not be renewed)');
  try {
    await releaseDeliveryLeases(ctx.db, deliveryIds, group.leaseToken, markedUnsent);
  } catch (error) {
    logger.error({ err: error, deliveryIds }, 'webhook leases could not be released');
    return;
  }
  // No longer held, they can be canceled (the claim never takes a disabled endpoint's meanwhile).
  await cancelUndeliverable(ctx, group.endpointId);
}

/**
 * Cancels the endpoint's pending deliveries if it is disabled or deleted (nothing otherwise); the
 * minute job retries a failure. The endpoint is read first under KEY SHARE, which waits for a
 * disabling or deletion in progress: its cancel skipped the deliveries this claim still held, and
 * if this claim let go of them before that transaction committed, a cancel that did not wait
 * would still see the endpoint enabled, and they would stay pending until the minute job.
 */
async function cancelUndeliverable(ctx: VerbContext, endpointId: string) {
  try {
    const endpoint = await readEndpointReceiving(ctx.db, endpointId);
    if (endpoint && endpoint.enabled && !endpoint.deleted) return;
    const canceled = await cancelDeliveriesOfInactiveEndpoint(ctx, { endpointId });
    if (canceled > 0) logger.info({ endpointId, canceled }, 'webhook deliveries of a disabled or deleted endpoint canceled');
  } catch (error) {
    logger.warn({ err: error, endpointId }, 'webhook deliveries of a disabled or deleted endpoint not canceled yet; the minute job will');
  }
}

