import type { DbOrTx } from '../db/client';
import { logger } from '../observability/logger';
import { parseSettings, settings } from '../settings/settings';
import { COMPRESSED_RETRY_DELAYS_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule';
import type { SendResult } from './send-webhook';
import { readEndpointTarget, writeAttempts, type EndpointTarget } from './store';

// An endpoint's window of sends (lib/webhooks/deliver-due-webhooks.ts sends through it): the
// order its sends start in, how many are in flight, the endpoint they read, and the batched
// writes of their results.

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

/** Attempt results written by one statement at most. */
const RECORD_BATCH = 100;
/**
 * A send uses its endpoint as read at most this long before: a new URL or secret, disabling or
 * deleting reach deliveries already claimed (a claim can take minutes to send) within it.
 */
const ENDPOINT_FRESH_MS = 1_000;

/** One attempt as sent, to be recorded. */
export type AttemptResult = {
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
