import { randomUUID } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { canonicalHash } from '../hash/canonical-hash';
import { completeClaim, deleteClaimsBefore, deleteOpenClaim, findClaim, insertClaim } from './store';

/** How long a completed answer is kept for replays (Stripe keeps 24 hours too). */
const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a claim holds before a retry may take over a write whose process died. */
const CLAIM_LEASE_MS = 30_000;

export type IdempotentWrite = { scope: string; key: string; method: string; path: string; body: unknown };
export type Claim =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; status: number; data: unknown };

/**
 * Claims an Idempotency-Key for one write, before the write runs. The first request claims it;
 * a retry with the same key and request replays the stored answer; the same key with another
 * request is 409 `idempotency_conflict`; a retry while the first is still running is 409
 * `conflict` (retry shortly). A claim older than the retention, or abandoned past its lease by a
 * process that died, is taken over.
 */
export async function claimIdempotencyKey(db: DbOrTx, write: IdempotentWrite, now: Date): Promise<Claim> {
  const fingerprint = fingerprintOf(write);
  const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
  // Two tries: the row seen as a conflict may be released (its write failed) before it is read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = randomUUID();
    const claimed = await insertClaim(
      db,
      { id, scope: write.scope, key: write.key, fingerprint, responseStatus: null, response: null, lockedUntil: new Date(now.getTime() + CLAIM_LEASE_MS), createdAt: now },
      { expiredBefore },
    );
    if (claimed) return { kind: 'claimed', id };
    const existing = await findClaim(db, write);
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw usedForAnother();
    if (existing.responseStatus === null) {
      throw stillRunning();
    }
    return { kind: 'replay', status: existing.responseStatus, data: existing.response };
  }
  throw stillRunning();
}

/**
 * What a key already holds, without claiming it: the stored answer of the same request (to
 * replay), 409 `idempotency_conflict` for another request, or null (nothing stored, expired, or
 * still running: the request then goes its ordinary way). For a write with no body, whose retry
 * is answered before its target is looked up: a deletion retried after it succeeded replays its
 * answer instead of finding nothing there.
 */
export async function storedAnswer(db: DbOrTx, write: IdempotentWrite, now: Date): Promise<{ status: number; data: unknown } | null> {
  const existing = await findClaim(db, write);
  if (!existing || existing.createdAt < new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)) return null;
  if (existing.fingerprint !== fingerprintOf(write)) throw usedForAnother();
  return existing.responseStatus === null ? null : { status: existing.responseStatus, data: existing.response };
}

function fingerprintOf(write: IdempotentWrite): string {
  return canonicalHash({ method: write.method, path: write.path, body: write.body ?? null });
}

function usedForAnother() {
  return new ServiceError('idempotency_conflict', 'This Idempotency-Key was used with a different request. Use a new key for a new request.', {
    param: 'idempotency-key',
  });
}

function stillRunning() {
  return new ServiceError('conflict', 'A request with this Idempotency-Key is still being processed. Retry in a moment.', {
    param: 'idempotency-key',
    headers: { 'retry-after': '1' },
  });
}

/** Stores the answer of a claimed write (one-time secrets already withheld by the caller). */
export async function completeIdempotencyKey(db: DbOrTx, claimId: string, status: number, data: unknown): Promise<void> {
  await completeClaim(db, claimId, status, data);
}

/** Gives a claim back when its write failed, so that a corrected retry with the same key can run. */
export async function releaseIdempotencyKey(db: DbOrTx, claimId: string): Promise<void> {
  await deleteOpenClaim(db, claimId);
}

/** Deletes answers past their retention (the job runner's sweep). */
export async function sweepIdempotentRequests({ db, now }: VerbContext): Promise<number> {
  return deleteClaimsBefore(db, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS));
}
