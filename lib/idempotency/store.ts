import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { Statement, Table } from '../db/statement';

/**
 * The idempotency store: the only place with SQL for `idempotent_requests`, the claims the
 * route wrapper takes on an Idempotency-Key before a write runs (idempotent-requests.ts decides
 * what a claim, a replay or a conflict is).
 */

/** A claimed key; the answer is null until the write completes. */
export type IdempotentRequestRow = {
  id: string;
  /** Whose key it is: `user:<id>` for a member, `account:<projectId>:<environment>` for API keys. */
  scope: string;
  key: string;
  /** sha256 of method, path and canonical body: the same key with another request is a conflict. */
  fingerprint: string;
  responseStatus: number | null;
  response: unknown;
  /** A claim not completed by then was abandoned (its process died): a retry may take it over. */
  lockedUntil: Date | null;
  createdAt: Date;
};

const idempotentRequests = new Table<IdempotentRequestRow>('idempotent_requests', {
  id: ['id', 'uuid'],
  scope: ['scope', 'text'],
  key: ['key', 'text'],
  fingerprint: ['fingerprint', 'text'],
  responseStatus: ['response_status', 'int'],
  response: ['response', 'jsonb'],
  lockedUntil: ['locked_until', 'timestamptz'],
  createdAt: ['created_at', 'timestamptz'],
});

type ClaimBindings = { claim: IdempotentRequestRow; takeOver: { expiredBefore: Date } };

/**
 * The claim's insert; a row already under the key is taken over (the claim's id, fingerprint and
 * lease replace it, its answer is cleared) only when it is past retention, or abandoned past its
 * lease by a request with the same fingerprint. The claim's createdAt is the request's now.
 */
const CLAIM = new Statement<ClaimBindings>((sql) => {
  const now = sql.param('claim', 'createdAt', 'timestamptz');
  return `${sql.insert(idempotentRequests, 'claim')}
     ON CONFLICT (scope, key) DO UPDATE
       SET id = EXCLUDED.id, fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until,
           created_at = EXCLUDED.created_at, response_status = NULL, response = NULL
       WHERE idempotent_requests.created_at < ${sql.param('takeOver', 'expiredBefore', 'timestamptz')}
          OR (idempotent_requests.response_status IS NULL AND idempotent_requests.locked_until < ${now}
              AND idempotent_requests.fingerprint = EXCLUDED.fingerprint)
     RETURNING id`;
});

/** Writes the claim, or takes the key's row over; false when the key stays someone else's. */
export async function insertClaim(db: DbOrTx, claim: IdempotentRequestRow, takeOver: { expiredBefore: Date }): Promise<boolean> {
  const rows = await sqlRows<{ id: string }>(db, CLAIM.text, CLAIM.values({ claim, takeOver }));
  return rows.length > 0;
}

const FIND_BY_KEY = new Statement<{ key: Pick<IdempotentRequestRow, 'scope' | 'key'> }>(
  (sql) => `SELECT ${idempotentRequests.selectList('r', ['fingerprint', 'responseStatus', 'response', 'createdAt'])} FROM idempotent_requests r
     WHERE r.scope = ${sql.param('key', 'scope', 'text')} AND r.key = ${sql.param('key', 'key', 'text')}`,
);

/** The request and answer stored under a key, if any. */
export async function findClaim(
  db: DbOrTx,
  key: Pick<IdempotentRequestRow, 'scope' | 'key'>,
): Promise<Pick<IdempotentRequestRow, 'fingerprint' | 'responseStatus' | 'response' | 'createdAt'> | null> {
  const [row] = await sqlRows<Pick<IdempotentRequestRow, 'fingerprint' | 'responseStatus' | 'response' | 'createdAt'>>(db, FIND_BY_KEY.text, FIND_BY_KEY.values({ key }));
  return row ?? null;
}

/** Stores a claimed write's answer and ends its lease. */
export async function completeClaim(db: DbOrTx, claimId: string, status: number, response: unknown): Promise<void> {
  // A write that answers no data stores JSON null, not SQL NULL.
  await db.$executeRaw`
    UPDATE idempotent_requests
    SET response_status = ${status}, response = ${JSON.stringify(response ?? null)}::jsonb, locked_until = NULL
    WHERE id = ${claimId}::uuid`;
}

/** Deletes a claim whose write has not completed. */
export async function deleteOpenClaim(db: DbOrTx, claimId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotent_requests WHERE id = ${claimId}::uuid AND response_status IS NULL`;
}

/** Deletes the claims made before `before`; returns how many. */
export async function deleteClaimsBefore(db: DbOrTx, before: Date): Promise<number> {
  return db.$executeRaw`DELETE FROM idempotent_requests WHERE created_at < ${before}`;
}
