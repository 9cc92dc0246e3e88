import { hostname } from 'node:os';
import type { DbOrTx } from '../db/client';
import { readEventsOfEnvironments } from '../events/store';
import { logger } from '../observability/logger';
import { processState } from '../process/state';
import { deliveryBody } from './envelope';
import { releaseStreamLeases, renewStreamLeases } from './store';
import { settings } from '../settings/settings';

declare module '../process/state' {
  interface ProcessState {
    /** The process's open event streams and their one shared poll. */
    eventStreams?: EventStreamHub;
    /** Ends every open event stream and frees its slot: scripts/serve.mjs calls it when stopping. */
    stopEventStreams?: () => Promise<void>;
  }
}

/** How often the process looks for new events of its streams, and how often an idle stream says it is still there. */
export const STREAM_POLL_MS = 500;
const HEARTBEAT_MS = 15_000;
/** A stream's slot lasts this long unless renewed (a dead process's slots come back after it)… */
export const STREAM_LEASE_TTL_SECONDS = 30;
/** …and the process renews all of its slots this often, in one statement. */
const RENEW_MS = 10_000;
/** Events read per environment and poll; a full batch is followed by the next at once. */
const BATCH = 100;
/** A listener that does not read falls this far behind, then its stream is ended (it reconnects from its last event). */
const MAX_QUEUED_BYTES = 1 << 20;

type Listener = {
  environmentId: string;
  /** Outbox position of the last event sent (or where the stream started). */
  cursor: bigint;
  leaseId: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
  lastWrite: number;
  ended: boolean;
  released?: Promise<void>;
};

export type StreamStart = { environmentId: string; afterSeq: string; leaseId: string; ready: string };

const encoder = new TextEncoder();

/**
 * The event streams one process holds, fed by one query per poll whatever their number (each
 * environment's next events after the position of its furthest-behind stream), with their slots
 * (stream-leases.ts) renewed in one statement. `autoPoll: false` leaves polling and renewing to
 * the caller (tests drive them).
 */
export class EventStreamHub {
  readonly holder = `${hostname()}:${process.pid}`;
  private readonly byEnvironment = new Map<string, Set<Listener>>();
  private readonly byLease = new Map<string, Listener>();
  private reserved = 0;
  private stopped = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private polling: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: DbOrTx,
    readonly options: { maxStreams: number; autoPoll: boolean },
  ) {}

  /** Streams open in this process. */
  get size(): number {
    return this.byLease.size;
  }

  /** Holds one of the process's places for a stream about to open; false when they are all taken (or it is stopping). */
  tryReserve(): boolean {
    if (this.stopped || this.byLease.size + this.reserved >= this.options.maxStreams) return false;
    this.reserved++;
    return true;
  }

  /** Opens a reserved stream: `ready` first, then every event of the environment after `afterSeq`, until it ends. */
  attach(start: StreamStart): ReadableStream<Uint8Array> {
    this.reserved--;
    let listener: Listener;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          listener = { environmentId: start.environmentId, cursor: BigInt(start.afterSeq), leaseId: start.leaseId, controller, lastWrite: 0, ended: false };
          this.byLease.set(listener.leaseId, listener);
          const listeners = this.byEnvironment.get(listener.environmentId) ?? new Set();
          this.byEnvironment.set(listener.environmentId, listeners.add(listener));
          void this.send(listener, start.ready);
          // Opened while the process was stopping: it ends at once, its listener reconnects elsewhere.
          if (this.stopped) return void this.end(listener, true);
          this.schedulePoll(STREAM_POLL_MS);
          if (this.options.autoPoll) this.renewTimer ??= setInterval(() => void this.renew(), RENEW_MS).unref();
        },
        // The listener went away: the slot is freed before the cancel settles.
        cancel: () => this.end(listener, false),
      },
      { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
    );
  }

  /** One read for every open stream of the process; polls run one after another. Resolves to whether a batch was full. */
  poll(): Promise<boolean> {
    const run = this.polling.then(() => this.pollOnce());
    this.polling = run.catch(() => undefined);
    return run;
  }

  /** Renews every slot of the process in one statement; streams whose slot was not renewed (run out, key revoked) end. */
  async renew(): Promise<void> {
    const ids = [...this.byLease.keys()];
    let renewed: Set<string>;
    try {
      renewed = await renewStreamLeases(this.db, ids, STREAM_LEASE_TTL_SECONDS);
    } catch (error) {
      logger.warn({ err: error }, 'event streams: renewing their slots failed; trying again');
      return;
    }
    for (const id of ids) {
      const listener = this.byLease.get(id);
      if (listener && !renewed.has(id)) await this.end(listener, true);
    }
  }

  /** Ends every stream and frees their slots; no stream opens after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    const listeners = [...this.byLease.values()];
    await Promise.all(listeners.map((listener) => this.end(listener, true)));
  }

  private async pollOnce(): Promise<boolean> {
    if (this.byEnvironment.size === 0) return false;
    const positions = [...this.byEnvironment].map(([environmentId, listeners]) => ({
      environmentId,
      afterSeq: String([...listeners].reduce((min, l) => (l.cursor < min ? l.cursor : min), [...listeners][0].cursor)),
    }));
    let full = false;
    const released: (Promise<void> | undefined)[] = [];
    try {
      const events = await readEventsOfEnvironments(this.db, positions, BATCH);
      const perEnvironment = new Map<string, number>();
      for (const event of events) {
        perEnvironment.set(event.environmentId, (perEnvironment.get(event.environmentId) ?? 0) + 1);
        const seq = BigInt(event.seq);
        let message: string | undefined;
        for (const listener of this.byEnvironment.get(event.environmentId) ?? []) {
          if (listener.cursor >= seq) continue;
          message ??= `id: ${event.id}\nevent: event\ndata: ${deliveryBody(event)}\n\n`;
          listener.cursor = seq;
          released.push(this.send(listener, message));
        }
      }
      full = [...perEnvironment.values()].some((n) => n >= BATCH);
    } catch (error) {
      logger.warn({ err: error }, 'event streams: reading events failed; trying again');
    }
    const now = Date.now();
    for (const listener of this.byLease.values()) if (now - listener.lastWrite >= HEARTBEAT_MS) released.push(this.send(listener, ': still here\n\n'));
    await Promise.all(released);
    return full;
  }

  private schedulePoll(delayMs: number): void {
    if (!this.options.autoPoll || this.stopped || this.pollTimer || this.byLease.size === 0) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      void this.poll().then((full) => this.schedulePoll(full ? 0 : STREAM_POLL_MS));
    }, delayMs).unref();
  }

  /** Sends to one listener; returns the release of its place when that ended it (it fell too far behind). */
  private send(listener: Listener, text: string): Promise<void> | undefined {
    if (listener.ended) return;
    listener.controller.enqueue(encoder.encode(text));
    listener.lastWrite = Date.now();
    if ((listener.controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) return this.end(listener, true);
  }

  /** Removes a stream (closing it when the listener is still there) and frees its slot. */
  private end(listener: Listener, close: boolean): Promise<void> {
    if (listener.ended) return listener.released ?? Promise.resolve();
    listener.ended = true;
    this.byLease.delete(listener.leaseId);
    const listeners = this.byEnvironment.get(listener.environmentId);
    listeners?.delete(listener);
    if (listeners?.size === 0) this.byEnvironment.delete(listener.environmentId);
    if (this.byLease.size === 0 && this.renewTimer) {
      clearInterval(this.renewTimer);
      this.renewTimer = null;
    }
    if (close) {
      try {
        listener.controller.close();
      } catch {
        // already closed or errored
      }
    }
    listener.released = releaseStreamLeases(this.db, [listener.leaseId]).catch((error: unknown) => {
      logger.warn({ err: error }, 'event streams: freeing a slot failed; it runs out by itself');
    });
    return listener.released;
  }
}

/** EVENT_STREAMS_PER_PROCESS (default 300): streams one service process holds at once. */
export function streamsPerProcess(): number {
  return settings().EVENT_STREAMS_PER_PROCESS;
}

/** The process's hub, made on first use with the process's database client. */
export function processEventStreams(db: DbOrTx): EventStreamHub {
  if (!processState.eventStreams) {
    const hub = new EventStreamHub(db, { maxStreams: streamsPerProcess(), autoPoll: true });
    processState.eventStreams = hub;
    processState.stopEventStreams = () => hub.stop();
  }
  return processState.eventStreams;
}
