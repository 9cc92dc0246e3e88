import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';

/**
 * The slots of open event streams (`event_stream_leases`): one row per stream, counted per API
 * key and per workspace by every process of every instance. The process holding a slot renews it
 * while its stream is open and deletes it when the stream ends; a slot not renewed in time (its
 * process died) no longer counts once `expires_at` has passed, and is deleted by the next count.
 */

export type StreamLeaseRequest = {
  id: string;
  apiKeyId: string;
  workspaceId: string;
  /** host:pid of the process that will hold it. */
  holder: string;
  ttlSeconds: number;
  perKey: number;
  perWorkspace: number;
};

/**
 * Granted; or refused by a bound (how many its key or workspace holds, and when the first of those
 * runs out unless renewed); or `busy`: another taker of the workspace was counting at that moment.
 */
export type StreamLeaseOutcome =
  | { outcome: 'granted' }
  | { outcome: 'key' | 'workspace'; held: number; freesInSeconds: number }
  | { outcome: 'busy' };

// take_event_stream_lease (its migration, 20261202011643_event_stream_leases) counts and inserts
// under the workspace's advisory lock, tried and not waited for.
const TAKE_SQL = `SELECT outcome, of_key, of_workspace, key_frees_in, workspace_frees_in
  FROM take_event_stream_lease($1::uuid, $2::uuid, $3::uuid, $4::text, $5::int, $6::int, $7::int)`;

type TakeRow = { outcome: 'granted' | 'key' | 'workspace' | 'busy'; of_key: number; of_workspace: number; key_frees_in: number; workspace_frees_in: number };

/** One try at a slot for a new stream of the key (one statement). */
export async function takeStreamLease(db: DbOrTx, request: StreamLeaseRequest): Promise<StreamLeaseOutcome> {
  const [row] = await sqlRows<TakeRow>(db, TAKE_SQL, [
    request.id,
    request.apiKeyId,
    request.workspaceId,
    request.holder,
    request.ttlSeconds,
    request.perKey,
    request.perWorkspace,
  ]);
  if (row.outcome === 'key') return { outcome: 'key', held: row.of_key, freesInSeconds: Math.max(1, row.key_frees_in) };
  if (row.outcome === 'workspace') return { outcome: 'workspace', held: row.of_workspace, freesInSeconds: Math.max(1, row.workspace_frees_in) };
  return { outcome: row.outcome };
}

// A slot is renewed only while it has not run out and its key is still valid (not revoked, not
// past a rotation's grace); slots of other processes that ran out are deleted on the way.
const RENEW_SQL = `WITH renewed AS (
     UPDATE event_stream_leases l SET expires_at = now() + make_interval(secs => $2::int)
     FROM api_keys k
     WHERE l.id = ANY($1::uuid[]) AND l.expires_at > now() AND k.id = l.api_key_id
       AND k.status <> 'revoked' AND (k.revoked_at IS NULL OR k.revoked_at > now())
     RETURNING l.id
   ), purged AS (
     DELETE FROM event_stream_leases WHERE expires_at <= now() AND NOT (id = ANY($1::uuid[])) RETURNING 1
   )
   SELECT id::text FROM renewed`;

/** Renews these slots in one statement; returns those renewed (the others are no longer held). */
export async function renewStreamLeases(db: DbOrTx, ids: readonly string[], ttlSeconds: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await sqlRows<{ id: string }>(db, RENEW_SQL, [ids, ttlSeconds])).map((row) => row.id));
}

const RELEASE_SQL = `DELETE FROM event_stream_leases WHERE id = ANY($1::uuid[])`;

/** Frees these slots at once (their streams ended). */
export async function releaseStreamLeases(db: DbOrTx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await sqlRows(db, RELEASE_SQL, [ids]);
}
