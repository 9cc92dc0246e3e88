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

/** Granted, or which bound refused it and when its first slot would run out unless renewed. */
export type StreamLeaseOutcome = { granted: true } | { granted: false; bound: 'key' | 'workspace'; held: number; freesInSeconds: number };

// Counting and inserting must see every slot committed before: one workspace's takers queue on a
// transaction-level advisory lock, and the count runs in the next statement (a fresh snapshot).
const LOCK_WORKSPACE_SQL = `SELECT count(*)::int AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended('event_stream_leases:' || $1::text, 0))) AS l`;

const TAKE_SQL = `WITH purged AS (
     DELETE FROM event_stream_leases WHERE workspace_id = $1::uuid AND expires_at <= now() RETURNING 1
   ), live AS (
     SELECT api_key_id, expires_at FROM event_stream_leases WHERE workspace_id = $1::uuid AND expires_at > now()
   ), counts AS (
     SELECT count(*) FILTER (WHERE api_key_id = $2::uuid)::int AS of_key, count(*)::int AS of_workspace,
       min(expires_at) FILTER (WHERE api_key_id = $2::uuid) AS key_frees_at, min(expires_at) AS workspace_frees_at
     FROM live
   ), granted AS (
     INSERT INTO event_stream_leases (id, api_key_id, workspace_id, holder, expires_at)
     SELECT $3::uuid, $2::uuid, $1::uuid, $4::text, now() + make_interval(secs => $5::int)
     FROM counts WHERE of_key < $6::int AND of_workspace < $7::int
     RETURNING 1
   )
   SELECT of_key, of_workspace, (SELECT count(*) FROM granted)::int AS granted,
     COALESCE(ceil(EXTRACT(EPOCH FROM key_frees_at - now())), 0)::int AS key_frees_in,
     COALESCE(ceil(EXTRACT(EPOCH FROM workspace_frees_at - now())), 0)::int AS workspace_frees_in
   FROM counts`;

type TakeRow = { of_key: number; of_workspace: number; granted: number; key_frees_in: number; workspace_frees_in: number };

/** Takes a slot when the key and its workspace are under their bounds. Run inside a transaction (`tx`). */
export async function takeStreamLease(tx: DbOrTx, request: StreamLeaseRequest): Promise<StreamLeaseOutcome> {
  await sqlRows(tx, LOCK_WORKSPACE_SQL, [request.workspaceId]);
  const [row] = await sqlRows<TakeRow>(tx, TAKE_SQL, [
    request.workspaceId,
    request.apiKeyId,
    request.id,
    request.holder,
    request.ttlSeconds,
    request.perKey,
    request.perWorkspace,
  ]);
  if (row.granted > 0) return { granted: true };
  if (row.of_key >= request.perKey) return { granted: false, bound: 'key', held: row.of_key, freesInSeconds: Math.max(1, row.key_frees_in) };
  return { granted: false, bound: 'workspace', held: row.of_workspace, freesInSeconds: Math.max(1, row.workspace_frees_in) };
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
