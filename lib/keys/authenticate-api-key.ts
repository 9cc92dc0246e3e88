import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { digestOf, digestsEqual } from '../auth/secret-digest';
import { environmentOfSecret } from './secrets';
import { readKeyAfresh, rememberedKey, rememberKey } from './store';

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

/**
 * A key this process found valid recently, without a query, or null (then it is read afresh).
 * Only a caller whose write re-checks the key may trust it: the quote store.
 */
export function rememberedApiKey(authorization: string | null, now: Date): ApiKeyPrincipal | null {
  const secret = bearerToken(authorization);
  const environment = secret ? environmentOfSecret(secret) : null;
  if (!secret || !environment) return null;
  return rememberedKey(digestOf(secret), environment, now);
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
  const key = await readKeyAfresh(db, digest);
  if (!key || !digestsEqual(key.digest, digest) || key.kind !== environment) throw invalid();
  const revoked = key.status === 'revoked' || (key.revokedAt !== null && key.revokedAt <= now);
  if (revoked) {
    const refusedKey = { keyId: key.id, workspaceId: key.workspaceId, projectId: key.projectId, environmentId: key.environmentId };
    // The caller holds the whole secret, so saying it was revoked tells them nothing new, and
    // tells them what to do. The code is the spec's: `revoked_api_key` on the account surface only.
    throw new RefusedApiKeyError(revokedCode, REVOKED_KEY_MESSAGE, refusedKey);
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
  rememberKey(db, digest, principal, key.lastUsedAt, now);
  return principal;
}

function bearerToken(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}

const INVALID_KEY_MESSAGE = 'Provide a valid API key as "Authorization: Bearer sk_test_…" or "sk_live_…".';
const REVOKED_KEY_MESSAGE = 'This API key has been revoked (rotated or revoked in the portal). Use one of the project’s current keys: the portal’s API keys page lists them.';

function invalid() {
  return new ServiceError('invalid_api_key', INVALID_KEY_MESSAGE);
}
