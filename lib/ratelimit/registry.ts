import { getDb, type DbOrTx } from '../db/client';
import { runsOnPool } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { spendPoint } from './counters';

/**
 * Every rate limit of the service, in one place: fixed windows, counted in PostgreSQL
 * (lib/ratelimit/counters.ts) so that every service instance shares them.
 */
export const RATE_LIMITS = {
  /** Spec 8: public quote creates per Business. */
  publicQuoteCreate: { points: 120, durationSeconds: 60 },
  /**
   * New quote acceptances on the hosted page per Business (the business of the quote accepted):
   * a person accepts a few; a robot many. Refused and repeated posts are not counted.
   */
  publicAcceptanceCreate: { points: 30, durationSeconds: 60 },
  /** One client address's share of a Business's acceptances, so that one source cannot use them all up. */
  publicAcceptancePerClient: { points: 10, durationSeconds: 60 },
  /** Spec 8: account surface requests per account and environment (issue 5). */
  accountRequests: { points: 600, durationSeconds: 60 },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/**
 * Event streams (GET /v1/event-stream) open at once: slots held while a stream is open, not a
 * rate. Counted across every process and instance (lib/webhooks/store/stream-leases.ts); beyond
 * either bound, 429 `rate_limited` with `retry-after`. One `qps listen` needs one.
 */
export const STREAM_LIMITS = { perKey: 3, perWorkspace: 30 } as const;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/**
 * Takes one point of `name` for `key` on the service's pool (the pool behind `db`; counters are
 * never part of a transaction: a refused write still spent what it spent); throws 429
 * `rate_limited` with `retry-after` when none are left. Every spend counts, the refused included.
 */
export async function spendAllowance(db: DbOrTx, name: RateLimitName, key: string): Promise<RateLimitState> {
  const { points: limit, durationSeconds } = RATE_LIMITS[name];
  const spent = await spendPoint(runsOnPool(db) ? db : getDb(), { key: `${name}:${key}`, windowMs: durationSeconds * 1000 });
  const resetSeconds = Math.ceil(Math.max(0, spent.expireMs - Date.now()) / 1000);
  if (spent.position > limit) throw rateLimitedError(Math.max(1, resetSeconds), limit);
  return { limit, remaining: limit - spent.position, resetSeconds };
}

/** `1 second`, `30 seconds`: how a message says when to come back. */
export const secondsInWords = (seconds: number): string => `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;

/** The 429 of a spent quota, as every route answers it (and Test-Fault `rate_limited` imitates). */
export function rateLimitedError(retryAfterSeconds: number, limit?: number): ServiceError {
  return new ServiceError('rate_limited', `Too many requests. Retry after ${secondsInWords(retryAfterSeconds)}.`, {
    headers: {
      'retry-after': String(retryAfterSeconds),
      ...(limit === undefined
        ? {}
        : { 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0', 'ratelimit-reset': String(retryAfterSeconds) }),
    },
  });
}

/** The 429 of a bound on what is held at once (open streams): `message` says which and what to do. */
export function heldLimitError(message: string, retryAfterSeconds: number, limit: number): ServiceError {
  return new ServiceError('rate_limited', message, { headers: rateLimitedError(retryAfterSeconds, limit).headers });
}
