import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { digestOf, digestsEqual } from '../auth/secret-digest';
import { environmentOfSecret } from './secrets';

/**
 * A revoked key of ours was presented. The request is still refused, but the request log files
 * it under the key's workspace: its owners need to see what still calls with a retired key.
 */
export class RefusedApiKeyError extends ServiceError {
  constructor(
    code: 'invalid_api_key' | 'revoked_api_key',
    message: string,
    readonly key: { keyId: string; workspaceId: string; projectId: string; environmentId: string },
  ) {
    super(code, message);
  }
}

/** A key seen valid recently, by digest; only writes that re-check the key trust it (rememberedApiKey). */
type RememberedKey = { principal: ApiKeyPrincipal; lastUsedAt: Date | null };
const rememberedKeys = new LRUCache<string, RememberedKey>({ max: 10_000 });

/**
 * A key this process found valid recently, without a query, or null (unknown, or its last use
 * is due to be written: then it is read afresh, since nothing is written for a key before it has
 * been found valid). Only a caller whose write re-checks the key may trust it: the quote store.
 * Each call returns a new principal object, so that callers can tell requests apart.
 */
export function rememberedApiKey(authorization: string | null, now: Date): ApiKeyPrincipal | null {
  const secret = bearerToken(authorization);
  const environment = secret ? environmentOfSecret(secret) : null;
  if (!secret || !environment) return null;
  const known = rememberedKeys.get(digestOf(secret));
  return known && known.principal.environment === environment && !useIsDue(known, now) ? { ...known.principal } : null;
}

/**
 * Turns an `Authorization` header into the key's principal. The prefix is checked first; the
 * lookup is by digest, so the secret itself is never compared or stored.
 * `revokedCode` lets the account surface answer `revoked_api_key` where others say invalid.
 */
export async function authenticateApiKey(
  db: DbOrTx,
  authorization: string | null,
  now: Date,
  revokedCode: 'invalid_api_key' | 'revoked_api_key' = 'invalid_api_key',
): Promise<ApiKeyPrincipal> {
  const secret = bearerToken(authorization);
  const environment = secret ? environmentOfSecret(secret) : null;
  if (!secret || !environment) throw invalid();
  const digest = digestOf(secret);
  rememberedKeys.delete(digest);
  // Every authenticated request starts here: one indexed lookup, by digest, with its environment.
  const [key] = await sqlRows<KeyRow>(
    db,
    `SELECT k.id::text AS id, k.digest, k.workspace_id::text AS "workspaceId", k.project_id::text AS "projectId",
       k.environment_id::text AS "environmentId", k.status::text AS status, k.scopes, k.revoked_at AS "revokedAt",
       k.last_used_at AS "lastUsedAt", e.kind::text AS kind
     FROM api_keys k JOIN environments e ON e.id = k.environment_id
     WHERE k.digest = $1::text`,
    [digest],
  );
  if (!key || !digestsEqual(key.digest, digest) || key.kind !== environment) throw invalid();
  const revoked = key.status === 'revoked' || (key.revokedAt !== null && key.revokedAt <= now);
  if (revoked) {
    const refusedKey = { keyId: key.id, workspaceId: key.workspaceId, projectId: key.projectId, environmentId: key.environmentId };
    throw revokedCode === 'revoked_api_key'
      ? new RefusedApiKeyError('revoked_api_key', 'This API key has been revoked.', refusedKey)
      : new RefusedApiKeyError('invalid_api_key', INVALID_KEY_MESSAGE, refusedKey);
  }
  const principal: ApiKeyPrincipal = {
    kind: 'api_key',
    keyId: key.id,
    workspaceId: key.workspaceId,
    projectId: key.projectId,
    environmentId: key.environmentId,
    environment,
    scopes: key.scopes,
  };
  const remembered = { principal, lastUsedAt: key.lastUsedAt };
  noteUse(db, remembered, now);
  rememberedKeys.set(digest, remembered);
  return principal;
}

/** Last use is kept to the minute so that authentication is not a write on every request. */
function useIsDue(key: RememberedKey, now: Date): boolean {
  return !key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > 60_000;
}

function noteUse(db: DbOrTx, key: RememberedKey, now: Date): void {
  if (!useIsDue(key, now)) return;
  key.lastUsedAt = now;
  void sqlRows(db, 'UPDATE api_keys SET last_used_at = $2::timestamptz WHERE id = $1::uuid', [key.principal.keyId, now]).catch(
    () => undefined,
  );
}

type KeyRow = {
  id: string;
  digest: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  status: 'active' | 'rotating' | 'revoked';
  scopes: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  kind: 'test' | 'live';
};

function bearerToken(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}

const INVALID_KEY_MESSAGE = 'Provide a valid API key as "Authorization: Bearer sk_test_…" or "sk_live_…".';

function invalid() {
  return new ServiceError('invalid_api_key', INVALID_KEY_MESSAGE);
}
