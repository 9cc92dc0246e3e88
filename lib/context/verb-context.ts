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
 * - `principal`: who the work is for;
 * - `requestId` and `log`: the request's id, and a logger that stamps it on every line;
 * - `now`: the request's clock reading, one instant for everything it does.
 */
export type VerbContext<P extends Principal | SystemPrincipal = Principal | SystemPrincipal> = {
  db: DbOrTx;
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
  return (ctx.db as Db).$transaction((tx) => fn({ ...ctx, db: tx }), options);
}

/**
 * Prisma's transaction client cannot connect or disconnect. (It does have a `$transaction`,
 * which would open a savepoint: joining is what callers here mean.)
 */
export function isTransaction(db: DbOrTx): boolean {
  return typeof (db as Partial<Db>).$connect !== 'function';
}
