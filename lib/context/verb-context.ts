import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import { logger, type Logger } from '../observability/logger';

/** Work the service does on its own (a sweep, a job, a script), not on a caller's behalf. */
export type SystemPrincipal = { kind: 'system'; job: string };

/**
 * What every domain verb takes first: `verb(ctx, input)`. A route's handler context is one (the
 * wrapper builds it per request); jobs and scripts make one with `systemContext`.
 * - `db`: the client, or the transaction a caller opened (see withTransaction);
 * - `readDb`: where reads that may lag a little go (searches, traces, comparisons, the Overview,
 *   request logs): the read replica when DATABASE_READ_URL is set and the caller's own writes
 *   have reached it (lib/db/read-replica.ts), else `db`. Read it through `readDbOf(ctx)`;
 *   permission checks and anything a write depends on stay on `db`;
 * - `principal`: who the work is for;
 * - `requestId` and `log`: the request's id, and a logger that stamps it on every line;
 * - `now`: the request's clock reading, one instant for everything it does.
 */
export type VerbContext<P extends Principal | SystemPrincipal = Principal | SystemPrincipal> = {
  db: DbOrTx;
  readDb?: DbOrTx;
  principal: P;
  requestId: string;
  now: Date;
  log: Logger;
};

/** A context for work outside a request: its own id, the current time, the system as principal. */
export function systemContext(db: DbOrTx, job: string, now: Date = new Date()): VerbContext<SystemPrincipal> {
  const requestId = `job_${randomUUID()}`;
  return { db, principal: { kind: 'system', job }, requestId, now, log: logger.child({ requestId, job }) };
}

type TransactionOptions = { isolationLevel?: 'Serializable' | 'RepeatableRead' | 'ReadCommitted'; timeout?: number; maxWait?: number };

/**
 * Runs `fn` in a transaction: a new one, or the caller's when `ctx.db` already is one, so that a
 * verb that needs a transaction can be called on its own or as a step of a larger one and its
 * writes commit together with the caller's. Options apply to a new transaction only.
 */
export async function withTransaction<C extends VerbContext, T>(
  ctx: C,
  fn: (tx: C) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  if (isTransaction(ctx.db)) return fn(ctx);
  // Inside a transaction every read is the transaction's: it sees what the transaction wrote.
  return (ctx.db as Db).$transaction((tx) => fn({ ...ctx, db: tx, readDb: tx }), options);
}

/** Where a verb's lag-tolerant reads go: `ctx.readDb`, except inside a transaction (its own reads). */
export function readDbOf(ctx: Pick<VerbContext, 'db' | 'readDb'>): DbOrTx {
  return isTransaction(ctx.db) ? ctx.db : (ctx.readDb ?? ctx.db);
}

/**
 * `read` on the read handle, and again on the primary when what it found there is incomplete
 * (`complete`; by default: not null): a row written a moment ago, by someone else, may not have
 * reached the replica yet, and a lookup must not answer 404 for it. Returns the handle that
 * answered, for the reads that follow (what the primary found, the replica may not have).
 */
export async function readFresh<T>(
  ctx: Pick<VerbContext, 'db' | 'readDb'>,
  read: (db: DbOrTx) => Promise<T>,
  complete: (value: T) => boolean = (value) => value !== null && value !== undefined,
): Promise<{ value: T; db: DbOrTx }> {
  const reader = readDbOf(ctx);
  const value = await read(reader);
  if (reader === ctx.db || complete(value)) return { value, db: reader };
  return { value: await read(ctx.db), db: ctx.db };
}

/**
 * Prisma's transaction client cannot connect or disconnect. (It does have a `$transaction`,
 * which would open a savepoint: joining is what callers here mean.)
 */
export function isTransaction(db: DbOrTx): boolean {
  return typeof (db as Partial<Db>).$connect !== 'function';
}
