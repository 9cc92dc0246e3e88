import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { createApiKey } from './create-api-key';
import { actorFields, actorUserId, type KeyActor } from './key-actor';
import { lockApiKey, setKeyStatus } from './store';
import { toApiKeyView } from './to-api-key-view';

export const DEFAULT_GRACE_MINUTES = 24 * 60;
export const MAX_GRACE_MINUTES = 168 * 60;

/**
 * Rotation (spec 3.2): a successor with the same name, environment and scopes is minted and
 * its secret returned once. With a grace window both keys authenticate until the old key's
 * `revokedAt`; with `graceMinutes: 0` the old key is revoked at once. The route has checked the
 * person may manage the key (requireKeyManager), or a Test key triggers it on a key it made.
 */
export async function rotateApiKey(ctx: VerbContext<KeyActor>, input: { keyId: string; graceMinutes: number }) {
  const { principal, now } = ctx;
  return withTransaction(ctx, async (tx) => {
    // Row lock: two concurrent rotations of one key cannot both mint a successor.
    const old = await lockApiKey(tx.db, input.keyId);
    if (!old) throw new ServiceError('not_found', `API key ${input.keyId} does not exist.`);
    if (old.status !== 'active' || (old.revokedAt !== null && old.revokedAt <= now)) {
      throw new ServiceError('conflict', `Only an active key can be rotated; this one is ${old.status}.`);
    }
    const successor = await createApiKey(tx, {
      projectId: old.projectId,
      environment: old.environment.kind,
      name: old.name,
      scopes: old.scopes,
      createdBy: actorUserId(principal),
      predecessorId: old.id,
    });
    const revokedAt = new Date(now.getTime() + input.graceMinutes * 60_000);
    const updated = await setKeyStatus(tx.db, old.id, { status: input.graceMinutes > 0 ? 'rotating' : 'revoked', revokedAt });
    const apiKey = toApiKeyView(updated, now);
    const subject = { workspaceId: old.workspaceId, projectId: old.projectId, environmentId: old.environmentId, subjectId: old.id };
    await recordEvent(tx, {
      type: 'api_key.rotated',
      ...subject,
      data: { apiKey, successor: successor.apiKey, graceMinutes: input.graceMinutes, ...actorFields(principal, 'rotatedBy') },
    });
    if (input.graceMinutes === 0) {
      await recordEvent(tx, { type: 'api_key.revoked', ...subject, data: { apiKey, reason: 'rotated_without_grace', ...actorFields(principal, 'revokedBy') } });
    }
    return { apiKey, successor: successor.apiKey, secret: successor.secret };
  });
}
