import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { actorFields, type KeyActor } from './key-actor';
import { lockApiKey, setKeyStatus } from './store';
import { toApiKeyView } from './to-api-key-view';

/**
 * Revokes a key at once (spec 3.2). Idempotent: a key already revoked keeps its original
 * revocation time; a rotating key's future `revokedAt` is brought forward to now. The route has
 * checked the person may manage the key (requireKeyManager), or a Test key triggers it on a key it made.
 */
export async function revokeApiKey(ctx: VerbContext<KeyActor>, { keyId }: { keyId: string }) {
  const { principal, now } = ctx;
  return withTransaction(ctx, async (tx) => {
    const current = await lockApiKey(tx.db, keyId);
    if (!current) throw new ServiceError('not_found', `API key ${keyId} does not exist.`);
    const alreadyRevoked = current.status === 'revoked' || (current.revokedAt !== null && current.revokedAt <= now);
    const row = await setKeyStatus(tx.db, current.id, { status: 'revoked', revokedAt: alreadyRevoked ? (current.revokedAt ?? now) : now });
    const apiKey = toApiKeyView(row, now);
    // Told once, when the stored status becomes revoked (a key past its grace may await the sweep).
    if (current.status !== 'revoked') {
      await recordEvent(tx, {
        type: 'api_key.revoked',
        workspaceId: current.workspaceId,
        projectId: row.projectId,
        environmentId: row.environmentId,
        subjectId: current.id,
        data: { apiKey, reason: 'revoked', ...actorFields(principal, 'revokedBy') },
      });
    }
    return apiKey;
  });
}
