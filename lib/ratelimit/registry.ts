import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type pg from 'pg';
import { getPool, type DbOrTx } from '../db/client';
import { poolOf } from '../db/sql';
import { ServiceError } from '../errors/service-error';

/**
 * Every rate limit of the service, in one place. Counters live in PostgreSQL (table
 * `rate_limits`, created by our migrations) so that every service instance shares them.
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

const limiters = new Map<string, RateLimiterPostgres>();

function limiterFor(pool: pg.Pool, name: RateLimitName): RateLimiterPostgres {
  let limiter = limiters.get(name);
  if (!limiter) {
    const { points, durationSeconds } = RATE_LIMITS[name];
    limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: true,
      keyPrefix: name,
      points,
      duration: durationSeconds,
    });
    limiters.set(name, limiter);
  }
  return limiter;
}

/**
 * `consumeRateLimit` on the pool behind `db` (the service's own when `db` is a transaction): for a
 * step or a verb that counts a limit once it knows what the request does. Counters are never
 * part of a transaction: a refused write still spent what it spent.
 */
export function spendAllowance(db: DbOrTx, name: RateLimitName, key: string): Promise<RateLimitState> {
  return consumeRateLimit(poolOf(db) ?? getPool(), name, key);
}

/** Takes one point for `key`; throws 429 `rate_limited` with `retry-after` when none are left. */
export async function consumeRateLimit(pool: pg.Pool, name: RateLimitName, key: string): Promise<RateLimitState> {
  const limit = RATE_LIMITS[name].points;
  try {
    const res = await limiterFor(pool, name).consume(key);
    return { limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw rateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), limit);
  }
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
