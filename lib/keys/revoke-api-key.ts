import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { toApiKeyView } from './to-api-key-view';

/**
 * Revokes a key at once (spec 3.2). Idempotent: a key already revoked keeps its original
 * revocation time; a rotating key's future `revokedAt` is brought forward to now.
 */
export async function revokeApiKey(db: DbOrTx, input: { keyId: string; workspaceId: string }, now: Date) {
  const key = await db.apiKey.findFirst({
    where: { id: input.keyId, workspaceId: input.workspaceId },
    select: { id: true, status: true, revokedAt: true },
  });
  if (!key) throw new ServiceError('not_found', `API key ${input.keyId} does not exist.`);
  const alreadyRevoked = key.status === 'revoked' || (key.revokedAt !== null && key.revokedAt <= now);
  const row = await db.apiKey.update({
    where: { id: key.id },
    data: { status: 'revoked', revokedAt: alreadyRevoked ? key.revokedAt ?? now : now },
    include: { environment: { select: { kind: true } } },
  });
  return { apiKey: toApiKeyView(row, now), changed: !alreadyRevoked };
}
