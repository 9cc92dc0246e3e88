/**
 * Whether a database failure is one that passes by itself: a deadlock or serialization failure
 * (class 40), a lost or refused connection (class 08, ECONNRESET…), the server shutting down or
 * out of connections, and a moment of overload (no pool connection free in time; a transaction
 * that could not start, or ran out of its time, Prisma's P2028). Background passes retry these at
 * their next tick without raising an alarm; a request answers them 503 (lib/http/steps/respond.ts).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = databaseErrorCode(error);
  if (['P2034', 'P2028'].includes(code) || /^(40|08)/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  const message = String((error as Error)?.message);
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) || /Connection terminated|timeout exceeded when trying to connect/i.test(message);
}

/** A deadlock: Prisma reports it as P2034 from its own queries, as P2010 with PostgreSQL's 40P01 from raw SQL. */
export function isDeadlock(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return code === 'P2034' || code === '40P01';
}

/** PostgreSQL's SQLSTATE (through Prisma's driver adapter, or from pg itself), else the error's own code. */
function databaseErrorCode(error: unknown): string {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  return String(e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.code ?? '');
}
