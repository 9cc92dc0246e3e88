/**
 * Whether a database failure is one that passes by itself: a deadlock or serialization failure
 * (class 40), a lost or refused connection (class 08, ECONNRESET…), the server shutting down or
 * out of connections. Background passes retry these at their next tick without raising an alarm.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  const code = String(e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.code ?? '');
  if (code === 'P2034') return true; // Prisma's name for a deadlock or write conflict
  if (/^(40|08)/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code) || /Connection terminated/i.test(String((error as Error)?.message));
}
