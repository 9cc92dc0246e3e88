import { systemContext } from '../context/verb-context';
import type { Db } from '../db/client';
import { isTransientDatabaseError } from '../db/transient-error';
import { logger } from '../observability/logger';
import { randomUUID } from 'node:crypto';
import { claimDueDeliveries, releaseEndpoint } from '../webhooks/claims';
import { deliverGroup } from '../webhooks/deliver-due-webhooks';
import { SendWindow, webhookWindow } from '../webhooks/send-window';
import { dispatchOutboxEvents } from '../webhooks/dispatch-outbox';
import { checkSealingKey, type SealingKeyState } from '../sealing/check-sealing-key';
import { runMinuteJobs } from './run-jobs';
import { settings } from '../settings/settings';

export type RunnerOptions = {
  db: Db;
  clock?: () => Date;
  tickMs?: number;
  minuteMs?: number;
  /** Whether this process can open the endpoints' signing secrets (checkSealingKey). */
  signingKey?: (db: Db) => Promise<SealingKeyState>;
  /** The most sends in flight per endpoint, while a backlog drains (default: WEBHOOK_SEND_WINDOW). */
  sendWindow?: number;
};

/** Endpoints one process sends to at the same time (lanes); each gets its own window of sends. */
const MAX_LANES = 50;
/** Deliveries one claim takes across endpoints. */
const CLAIM_LIMIT = 200;

/** An endpoint this process is sending to: its window, shared by every claim of it still running. */
type Lane = { window: SendWindow; claims: number; lastLease: Date };

/**
 * Drives the same domain jobs as the Inngest functions when no Inngest server is configured
 * (the embedded default). State lives in PostgreSQL, so several instances can each run one:
 * claims are leased. Every tick fans out new events and claims due deliveries; an endpoint is
 * claimed again once little of its last claim is left unsent (its window keeps sending
 * meanwhile, and a claim is made at once rather than at the next tick), so a slow endpoint
 * delays only its own deliveries.
 */
export function startInProcessRunner({ db, clock = () => new Date(), tickMs = 200, minuteMs = 60_000, signingKey = checkSealingKey, sendWindow }: RunnerOptions) {
  const window = webhookWindow(sendWindow);
  let stopped = false;
  // Decided once, at the first tick that reaches the database: an instance that cannot sign
  // claims nothing (a claim it could not send would hold its endpoint until the lease ran out).
  let mayDeliver: boolean | undefined;
  // Whose endpoint send leases these are: this runner's (one per process).
  const owner = randomUUID();
  const lanes = new Map<string, Lane>();
  const sending = new Set<Promise<void>>();
  // Endpoints whose lane has ended and whose send lease is being given back: not claimed meanwhile.
  const releasing = new Set<string>();
  // The last claim made: settles once the lanes it opened exist.
  let claiming: Promise<void> = Promise.resolve();

  const webhookTick = async () => {
    const ctx = systemContext(db, 'webhooks', clock());
    await dispatchOutboxEvents(ctx);
    if (mayDeliver === undefined) {
      const state = await signingKey(db);
      mayDeliver = state.usable;
      if (!state.usable) logger.error({ reason: state.reason }, `webhook delivery refused on this instance: ${state.reason}; other instances deliver, GET /v1/status shows it`);
    }
    if (!mayDeliver) return;
    const busy = [...lanes].filter(([, lane]) => lane.window.pending >= window.refillBelow).map(([endpointId]) => endpointId);
    // A claim may open a lane for each endpoint it returns: together at most MAX_LANES.
    const maxEndpoints = MAX_LANES - lanes.size;
    if (maxEndpoints <= 0) return;
    const claim = claimDueDeliveries(ctx, { busyEndpoints: [...busy, ...releasing], limit: CLAIM_LIMIT, maxEndpoints, owner });
    claiming = claim.then(
      () => undefined,
      () => undefined,
    );
    const groups = await claim;
    for (const group of groups) {
      let lane = lanes.get(group.endpointId);
      if (!lane) {
        // the send that leaves fewer than window.refillBelow queued asks for the next claim
        lane = { window: new SendWindow(db, window.size, (pending) => pending === window.refillBelow - 1 && webhooks.wake()), claims: 0, lastLease: group.leasedUntil };
        lanes.set(group.endpointId, lane);
      }
      const claimLane = lane;
      claimLane.claims++;
      if (group.leasedUntil > claimLane.lastLease) claimLane.lastLease = group.leasedUntil;
      // Attempts are stamped from when sending starts, not from before the fan-out and the claim,
      // and by the runner's own clock: without it deliverGroup counts `now` plus the time since,
      // so a clock a test holds still would still see its events grow late (BACKLOG_MS) and the
      // window widen, sending more than one at a time to a receiver that keeps up.
      const done: Promise<void> = deliverGroup({ ...ctx, now: clock() }, { group, window: claimLane.window, clock }).finally(async () => {
        sending.delete(done);
        if (group.leasedUntil > claimLane.lastLease) claimLane.lastLease = group.leasedUntil; // renewed while sending
        if (--claimLane.claims === 0) {
          lanes.delete(group.endpointId);
          // Its last send has ended: another process may take the endpoint from here. Unless a
          // claim in flight took it again: its lease, dated from the tick's start, may end before
          // this lane's last renewal, and giving it back would let another process send to the
          // endpoint beside that claim's new lane (out of order).
          releasing.add(group.endpointId);
          try {
            await claiming;
            if (!lanes.has(group.endpointId)) await releaseEndpoint(ctx, { endpointId: group.endpointId, owner, lastLease: claimLane.lastLease });
          } finally {
            releasing.delete(group.endpointId);
          }
        }
      });
      sending.add(done);
    }
  };

  const loop = (name: string, everyMs: number, job: () => Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    let inTick = false;
    let again = false;
    const tick = () => {
      inTick = true;
      running = job()
        .then(() => undefined)
        // A deadlock or a lost connection passes: the next tick tries again, without an alarm.
        .catch((error: unknown) =>
          isTransientDatabaseError(error)
            ? logger.warn({ err: error, job: name }, 'background job pass failed; it runs again at the next tick')
            : logger.error({ err: error, job: name }, 'background job failed'),
        )
        .finally(() => {
          inTick = false;
          if (!stopped) timer = setTimeout(tick, again ? 0 : everyMs);
          again = false;
        });
    };
    timer = setTimeout(tick, 0);
    return {
      /** Runs the job now (or right after the run in progress) instead of at the next tick. */
      wake() {
        if (stopped) return;
        if (inTick) again = true;
        else {
          clearTimeout(timer);
          timer = setTimeout(tick, 0);
        }
      },
      async stop() {
        clearTimeout(timer);
        await running;
      },
    };
  };
  const webhooks = loop('webhooks', tickMs, webhookTick);
  const minute = loop('minute', minuteMs, () => runMinuteJobs(systemContext(db, 'minute-jobs', clock())));
  return {
    /**
     * Stops claiming, hands back the deliveries not yet sent and waits for the sends in flight
     * (at most one attempt timeout) and their records, so that a restart re-sends nothing.
     */
    async stop() {
      stopped = true;
      for (const lane of lanes.values()) lane.window.closed = true;
      await Promise.all([webhooks.stop(), minute.stop()]);
      for (const lane of lanes.values()) lane.window.closed = true; // lanes a last tick opened
      await Promise.all(sending);
    },
  };
}

/** Which engine drives the jobs: Inngest when it is configured, else this runner (or none). */
export function jobEngine({ JOB_RUNNER, INNGEST_SIGNING_KEY, INNGEST_DEV } = settings()): 'inngest' | 'in-process' | 'off' {
  if (JOB_RUNNER === 'off') return 'off';
  if (JOB_RUNNER === 'inngest' || INNGEST_SIGNING_KEY || INNGEST_DEV) return 'inngest';
  return 'in-process';
}
