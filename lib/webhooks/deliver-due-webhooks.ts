import { randomUUID } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { logger } from '../observability/logger';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { deliveryBody } from './envelope';
import { openSecret } from '../sealing/sealing-key';
import { ATTEMPT_TIMEOUT_MS, sendWebhook, type SendResult } from './send-webhook';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import {
  claimDeliveries,
  extendLeases,
  MARK_AHEAD,
  markAttemptsStarted,
  readDeliveryStanding,
  readEndpointReceiving,
  readEndpointTarget,
  releaseDeliveryLeases,
  releaseEndpointLease,
  writeAttempts,
  type ClaimedDelivery,
  type EndpointTarget,
} from './store';
import { COMPRESSED_RETRY_DELAYS_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule';
import { takeTestFailure } from './test-failures';
import { privateTargetsAllowed } from './target-policy';
import { parseSettings, settings } from '../settings/settings';

/** The most sends to one endpoint in flight at once, while a backlog drains, unless WEBHOOK_SEND_WINDOW says otherwise. */
export const DEFAULT_SEND_WINDOW = parseSettings({}).WEBHOOK_SEND_WINDOW;

/**
 * How long the next send to an endpoint may have been due before its window widens: a receiver
 * that leaves no event waiting this long keeps up, and gets one send at a time, in outbox order.
 */
export const BACKLOG_MS = 1_000;
/** How often a window with sends waiting looks whether the first of them has waited BACKLOG_MS. */
const BACKLOG_CHECK_MS = 100;

export type WebhookWindow = {
  /**
   * The most sends to one endpoint in flight at once. A window sends one at a time (so the
   * receiver gets its events in outbox order) and widens to this many only while a backlog
   * builds (SendWindow); they still start in outbox order, but answers may come back, and
   * arrivals interleave, out of it. The endpoint's send lease keeps every other worker away.
   */
  size: number;
  /** One claim takes at most this many deliveries of one endpoint (so one endpoint cannot take every slot). */
  claimPerEndpoint: number;
  /** The runner claims more for an endpoint once fewer than this many of its claimed deliveries are unsent. */
  refillBelow: number;
};

/** An endpoint's window of `size` sends (WEBHOOK_SEND_WINDOW unless given), and the claims that keep it full. */
export function webhookWindow(size = settings().WEBHOOK_SEND_WINDOW): WebhookWindow {
  return { size, claimPerEndpoint: Math.max(50, 2 * size), refillBelow: 2 * size };
}

/**
 * A claim's lease on its deliveries and their endpoint: renewed every LEASE_RENEW_MS while its
 * worker lives, so it never runs out under a live worker however long its queue takes; a dead
 * worker's runs out within this long, and another worker takes its deliveries over.
 */
export const LEASE_MS = 15_000;
const LEASE_RENEW_MS = 2_000;
/**
 * An attempt starts only while its lease covers its timeout and this long to record it (a lease
 * short of it is renewed first): a live worker's send never outlasts its lease, so nobody else
 * sends the same delivery meanwhile.
 */
const RECORD_MARGIN_MS = 1_000;
/** Attempt results written by one statement at most. */
const RECORD_BATCH = 100;
/**
 * A send uses its endpoint as read at most this long before: a new URL or secret, disabling or
 * deleting reach deliveries already claimed (a claim can take minutes to send) within it.
 */
const ENDPOINT_FRESH_MS = 1_000;

/**
 * Deliveries of one endpoint claimed together, in outbox order, under one lease; `endpoint` is
 * the endpoint as the claim read it (sends read it again once that is more than ENDPOINT_FRESH_MS old).
 */
export type ClaimedGroup = {
  endpointId: string;
  endpoint: EndpointTarget;
  deliveryIds: string[];
  deliveries: ClaimedDelivery[];
  /** Until when the claim holds them; moved on by each renewal. */
  leasedUntil: Date;
  /** This claim, on each delivery it holds: its attempts settle them only while it still does. */
  leaseToken: string;
  /** Whose the endpoint's send lease is. */
  owner: string;
};

/**
 * Claims due deliveries: at most `maxEndpoints` endpoints (those with the oldest due events) and
 * webhookWindow().claimPerEndpoint deliveries of each, oldest events first, and reads what their attempts need
 * in the same statement. An endpoint is claimed with its send lease, for `owner`: another
 * worker's endpoint is skipped until its lease is given back or runs out (endpoints are locked
 * SKIP LOCKED, so two claims at the same moment take different ones), and so is an endpoint the
 * caller is still busy with. The UPDATE re-checks each delivery's lease, so no delivery is
 * claimed twice. With `through`, only that delivery's endpoint is claimed, and only its due
 * deliveries up to that one in outbox order (so the earlier ones still go first).
 */
export async function claimDueDeliveries(
  { db, now }: VerbContext,
  options: { limit?: number; busyEndpoints?: Iterable<string>; maxEndpoints?: number; owner?: string; through?: string } = {},
): Promise<ClaimedGroup[]> {
  const leasedUntil = new Date(now.getTime() + LEASE_MS);
  const owner = options.owner ?? randomUUID();
  const leaseToken = randomUUID();
  const claimed = await claimDeliveries(db, {
    now,
    leasedUntil,
    leaseToken,
    owner,
    busy: [...(options.busyEndpoints ?? [])],
    perEndpoint: webhookWindow().claimPerEndpoint,
    limit: options.limit ?? 100,
    maxEndpoints: options.maxEndpoints ?? 2 ** 31 - 1,
    through: options.through,
  });
  const groups = new Map<string, ClaimedGroup>();
  for (const { url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, test_failure_mode, ...delivery } of claimed) {
    let group = groups.get(delivery.endpoint_id);
    if (!group) {
      const endpoint = { url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, test_failure_mode };
      group = { endpointId: delivery.endpoint_id, endpoint, deliveryIds: [], deliveries: [], leasedUntil, leaseToken, owner };
      groups.set(delivery.endpoint_id, group);
    }
    group.deliveryIds.push(delivery.id);
    group.deliveries.push(delivery);
  }
  return [...groups.values()];
}

type AttemptResult = {
  deliveryId: string;
  leaseToken: string;
  number: number;
  startedAt: Date;
  requestHeaders: Record<string, string>;
  result: SendResult;
};

/**
 * One endpoint's window: its sends start in the order they were asked for (so first attempts
 * start in outbox order, whatever the steps before each send take), one at a time — each after
 * the previous one's answer, so the receiver gets them in that order — unless a backlog builds:
 * once the next send has been due BACKLOG_MS, up to `max` are in flight at once, until nothing is
 * in flight and nothing waiting is that late. Results are written in batches: while one write
 * runs, the results that come in meanwhile wait and go in the next single statement.
 */
export class SendWindow {
  private active = 0;
  /** Sends allowed in flight now: 1, or `max` while a backlog drains. */
  private allowed = 1;
  /** Sends asked for and not started, each with how long it has been due. */
  private readonly waiting: { go: () => void; lateMs: () => number }[] = [];
  private backlogCheck: NodeJS.Timeout | undefined;
  private readonly results: { attempt: AttemptResult; written: () => void }[] = [];
  private writing = false;
  /** Settles when the send asked for last has started (or ended without starting). */
  private lastStart: Promise<void> = Promise.resolve();
  /** When the window's last send started, as stamped. */
  private lastStartedAt = 0;
  /** Set when the process stops: sends not yet started are handed back instead of made. */
  closed = false;
  /** The endpoint as last read (by a claim or since), shared by the window's sends. */
  private target: { value: Promise<EndpointTarget | null>; readAt: number } | undefined;

  constructor(
    private readonly db: DbOrTx,
    /** The most sends in flight at once, while a backlog drains. */
    readonly max = webhookWindow().size,
    /** Told how many sends are queued or in flight each time a send ends (the runner refills on it). */
    private readonly onSendEnded?: (pending: number) => void,
    private readonly endpointFreshMs = ENDPOINT_FRESH_MS,
    private readonly backlogMs = BACKLOG_MS,
  ) {}

  /** Sends allowed in flight now (1 unless a backlog widened the window). */
  get width(): number {
    return this.allowed;
  }

  /** Takes the endpoint a claim has just read, unless a later read is already held. */
  claimed(target: EndpointTarget, readAt: number): void {
    if (!this.target || this.target.readAt < readAt) this.target = { value: Promise.resolve(target), readAt };
  }

  /** The endpoint for the next send: the last read while fresh, otherwise read again (once for all sends waiting). */
  endpoint(endpointId: string): Promise<EndpointTarget | null> {
    const now = performance.now();
    if (!this.target || now - this.target.readAt > this.endpointFreshMs) {
      const value = readEndpointTarget(this.db, endpointId);
      this.target = { value, readAt: now };
      // A failed read is not kept: the next send reads again.
      value.catch(() => {
        if (this.target?.value === value) this.target = undefined;
      });
    }
    return this.target.value;
  }

  /** Sends queued or in flight. */
  get pending(): number {
    return this.active + this.waiting.length;
  }

  /**
   * Runs `send` in a free slot, after every send asked for before it has started. `send` awaits
   * `start()` right before it sends: that returns once every earlier send has sent (or ended
   * without sending), so that sends leave in the order they were asked for. `lateMs` says how
   * long the delivery has been due (what widens the window).
   */
  async run<T>(send: (start: () => Promise<void>) => Promise<T>, lateMs: () => number = () => 0): Promise<T> {
    const previous = this.lastStart;
    let started!: () => void;
    this.lastStart = new Promise<void>((resolve) => (started = resolve));
    await new Promise<void>((go) => {
      this.waiting.push({ go, lateMs });
      this.admit();
    });
    try {
      return await send(async () => {
        await previous;
        started();
      });
    } finally {
      void previous.then(started); // a send that ended without sending lets the next one go, in its turn
      this.active--;
      this.admit();
      this.onSendEnded?.(this.pending);
    }
  }

  /**
   * Widens the window once the first send waiting has been due backlogMs (the receiver is not
   * keeping up), narrows it back to one once nothing is in flight and nothing waiting is that
   * late, and starts what the window allows, in order.
   */
  private admit(): void {
    const first = this.waiting[0];
    if (first && first.lateMs() >= this.backlogMs) this.allowed = this.max;
    else if (this.active === 0) this.allowed = 1;
    while (this.active < this.allowed && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()!.go();
    }
    // Sends waiting behind a narrow window: look again as time passes (a send in flight may not end soon).
    if (this.waiting.length > 0 && this.allowed < this.max) {
      this.backlogCheck ??= setInterval(() => this.admit(), BACKLOG_CHECK_MS).unref();
    } else if (this.backlogCheck) {
      clearInterval(this.backlogCheck);
      this.backlogCheck = undefined;
    }
  }

  /**
   * The start time to record for a send starting now (after `start()`): the claim's clock, but
   * never before the window's previous send. Sends start in order; clocks of two claims read
   * from Date's whole milliseconds may not, by a millisecond, and the record keeps the order.
   */
  stamp(at: Date): Date {
    this.lastStartedAt = Math.max(this.lastStartedAt, at.getTime());
    return new Date(this.lastStartedAt);
  }

  /** Resolves once the attempt is written (a failed write is logged: the lease runs out and a later pass retries). */
  record(attempt: AttemptResult): Promise<void> {
    return new Promise((written) => {
      this.results.push({ attempt, written });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll() {
    this.writing = true;
    while (this.results.length > 0) {
      // one statement must not update the same delivery twice
      const ids = new Set<string>();
      let n = 0;
      while (n < this.results.length && n < RECORD_BATCH && !ids.has(this.results[n].attempt.deliveryId)) ids.add(this.results[n++].attempt.deliveryId);
      const batch = this.results.splice(0, n);
      try {
        await recordAttempts(this.db, batch.map((b) => b.attempt));
      } catch {
        // One row the batch could not take (or a passing error) must not lose the others'
        // results: each is tried on its own; what still fails is left to the lease (logged).
        for (const { attempt } of batch) {
          await recordAttempts(this.db, [attempt]).catch((error: unknown) =>
            logger.error({ err: error, deliveryId: attempt.deliveryId }, 'webhook attempt could not be recorded'),
          );
        }
      }
      for (const b of batch) b.written();
    }
    this.writing = false;
  }
}

/**
 * Marks a claim's attempts as started before they are sent: the claim marks the first
 * MARK_AHEAD of its endpoint, and the next MARK_AHEAD at a time are marked in one statement
 * while earlier sends are still in flight. Service-Attempt counts every attempt
 * started, so a delivery re-sent after its worker died mid-send says so. A crash can count at
 * most MARK_AHEAD attempts of an endpoint that were marked but not sent; deliveries handed back
 * unsent are unmarked.
 */
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
 * Moves a claim's lease (its endpoint's, then its deliveries') on to LEASE_MS from `now`. A
 * failure is logged, and sends stop before the old lease ends.
 */
async function renewLease(db: DbOrTx, group: ClaimedGroup, now: Date): Promise<void> {
  const until = new Date(now.getTime() + LEASE_MS);
  try {
    await extendLeases(db, group, until);
    if (until > group.leasedUntil) group.leasedUntil = until;
  } catch (error) {
    logger.warn({ err: error, endpointId: group.endpointId }, 'webhook lease not renewed');
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
 * Gives an endpoint's send lease back, if `owner` still holds the lease its last claim took (a
 * claim made since, which extended it, keeps it): another worker may send to it at once.
 */
export async function releaseEndpoint(
  { db }: VerbContext,
  { endpointId, owner, lastLease }: { endpointId: string; owner: string; lastLease?: Date },
): Promise<void> {
  await releaseEndpointLease(db, endpointId, owner, lastLease).catch((error: unknown) =>
    logger.warn({ err: error, endpointId }, 'webhook endpoint lease not given back; it runs out by itself'),
  );
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

/**
 * Records attempts in one statement, each with the number it was marked with when it started
 * (its Service-Attempt): a worker whose lease ran out (and whose delivery another worker also
 * sent) still records its attempt, and a settled delivery keeps its outcome. The fifth attempt
 * started is the last.
 */
async function recordAttempts(db: DbOrTx, attempts: AttemptResult[]) {
  const records = attempts.map(({ result, ...attempt }) => {
    const acknowledged = result.status !== null && result.status >= 200 && result.status < 300;
    return {
      ...attempt,
      latencyMs: result.latencyMs,
      responseStatus: result.status,
      responseExcerpt: result.excerpt,
      error: result.error ?? (acknowledged ? null : `answered ${result.status}`),
      acknowledged,
      responseHeaders: result.headers,
    };
  });
  const rows = await writeAttempts(db, records, { maxAttempts: MAX_ATTEMPTS, retryDelaysMs: RETRY_DELAYS_MS, compressedDelaysMs: COMPRESSED_RETRY_DELAYS_MS });
  const outcome = new Map(rows.map((row) => [row.id, row]));
  for (const { deliveryId, acknowledged, responseStatus } of records) {
    if (acknowledged) continue;
    const row = outcome.get(deliveryId);
    logger.info({ deliveryId, attempt: row?.number, status: responseStatus, exhausted: row?.status === 'exhausted' }, 'webhook attempt failed');
  }
}
