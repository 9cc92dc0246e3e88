/**
 * Whether a database failure is one that passes by itself: a deadlock or serialization failure
 * (class 40), a lost or refused connection (class 08, ECONNRESET…), the server shutting down or
 * out of connections. Background passes retry these at their next tick without raising an alarm.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = databaseErrorCode(error);
  if (code === 'P2034' || /^(40|08)/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) || /Connection terminated/i.test(String((error as Error)?.message));
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
