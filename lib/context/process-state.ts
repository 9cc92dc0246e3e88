import type pg from 'pg';
import type { PrismaClient } from '../db/generated/client';
import type { RequestLogWriter } from '../requestlog/request-log-writer';
import type { SendToInngest } from '../webhooks/forward-deliveries';

/**
 * What a service process holds once, whichever copy of a module asks: the API's router bundle
 * and Next.js's chunks (the portal, the job runner started by instrumentation.ts) each load
 * their own copy of lib/, and `npm run dev` reloads modules. Every slot is declared here, with
 * its type, and kept under one key of `globalThis`; nothing else is put there.
 */
export type ProcessState = {
  /** The database client and its pool (lib/db/client.ts). */
  db?: { prisma: PrismaClient; pool: pg.Pool };
  /** The pg pool behind each Prisma client, for raw SQL (lib/db/sql.ts). */
  pools: WeakMap<object, pg.Pool>;
  /** The request log's batching writer (lib/http/steps/request-log.ts). */
  requestLogWriter?: RequestLogWriter;
  /** Forwarding queued deliveries to Inngest, one run at a time (lib/jobs/forward-to-inngest.ts). */
  forwarding?: { running: boolean; again: boolean; engine?: string };
  /** Inngest's event API, as the composition root gives it (lib/jobs/forward-to-inngest.ts). */
  inngestSender?: SendToInngest;
  /** Settles once the in-process job runner has stopped (scripts/serve.mjs waits for it). */
  jobsStopped?: Promise<void>;
  /** Values worked out once per process (rememberedPerProcess), by name. */
  remembered: Map<string, Promise<unknown>>;
};

/** The key scripts/serve.mjs reads `jobsStopped` under (it is plain JavaScript). */
export const PROCESS_STATE_KEY = Symbol.for('quote-pricing-service.process-state');

const holder = globalThis as typeof globalThis & { [PROCESS_STATE_KEY]?: ProcessState };

export const processState: ProcessState = (holder[PROCESS_STATE_KEY] ??= { pools: new WeakMap(), remembered: new Map() });
