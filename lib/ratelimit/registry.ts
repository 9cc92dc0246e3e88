import { LRUCache } from 'lru-cache';
import { getDb, type DbOrTx } from '../db/client';
import { runsOnPool } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { spendPoint, type Spent } from './counters';

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
  const limit = limitOn(name, key);
  return settleSpend(limit, await spendPoint(runsOnPool(db) ? db : getDb(), { key: limit.counterKey, windowMs: limit.windowMs }));
}

/** A limit on one key: its counter's row, its points and its window. */
export type KeyedLimit = { counterKey: string; points: number; windowMs: number };

export function limitOn(name: RateLimitName, key: string): KeyedLimit {
  const { points, durationSeconds } = RATE_LIMITS[name];
  return { counterKey: `${name}:${key}`, points, windowMs: durationSeconds * 1000 };
}

/**
 * Counters this process saw spent, with the end of their window. A fixed window once spent stays
 * spent until it ends, so a request in it is refused before any work: the statement that would
 * have counted it would refuse it too.
 */
const spentWindows = new LRUCache<string, number>({ max: 10_000 });

/** The 429 `rate_limited` of a limit whose window this process knows is spent; null otherwise. */
export function knownSpentRefusal(limit: KeyedLimit, nowMs = Date.now()): ServiceError | null {
  const endsAt = spentWindows.get(limit.counterKey);
  if (endsAt === undefined) return null;
  if (endsAt > nowMs) return rateLimitedError(retryAfterSeconds(endsAt, nowMs), limit.points);
  spentWindows.delete(limit.counterKey);
  return null;
}

/**
 * What a spend of one point means: 429 `rate_limited` with `retry-after` past the limit (every
 * spend counts, the refused included), the allowance left otherwise. A window spent is remembered.
 */
export function settleSpend(limit: KeyedLimit, spent: Spent, nowMs = Date.now()): RateLimitState {
  if (spent.position >= limit.points) spentWindows.set(limit.counterKey, spent.expireMs);
  const resetSeconds = Math.ceil(Math.max(0, spent.expireMs - nowMs) / 1000);
  if (spent.position > limit.points) throw rateLimitedError(retryAfterSeconds(spent.expireMs, nowMs), limit.points);
  return { limit: limit.points, remaining: limit.points - spent.position, resetSeconds };
}

const retryAfterSeconds = (endsAtMs: number, nowMs: number) => Math.max(1, Math.ceil((endsAtMs - nowMs) / 1000));

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
