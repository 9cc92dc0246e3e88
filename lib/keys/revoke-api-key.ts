import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { toApiKeyView } from './to-api-key-view';

/**
 * Revokes a key at once (spec 3.2). Idempotent: a key already revoked keeps its original
 * revocation time; a rotating key's future `revokedAt` is brought forward to now. The route has
 * checked the person may manage the key (requireKeyManager).
 */
export async function revokeApiKey(ctx: VerbContext<SessionPrincipal>, { keyId }: { keyId: string }) {
  const { principal, now } = ctx;
  return withTransaction(ctx, async ({ db: tx }) => {
    const [key] = await tx.$queryRaw<{ id: string; workspace_id: string }[]>`
      SELECT id::text, workspace_id::text FROM api_keys WHERE id = ${keyId}::uuid FOR UPDATE`;
    if (!key) throw new ServiceError('not_found', `API key ${keyId} does not exist.`);
    const current = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { status: true, revokedAt: true } });
    const alreadyRevoked = current.status === 'revoked' || (current.revokedAt !== null && current.revokedAt <= now);
    const row = await tx.apiKey.update({
      where: { id: key.id },
      data: { status: 'revoked', revokedAt: alreadyRevoked ? (current.revokedAt ?? now) : now },
      include: { environment: { select: { kind: true } } },
    });
    const apiKey = toApiKeyView(row, now);
    // Told once, when the stored status becomes revoked (a key past its grace may await the sweep).
    if (current.status !== 'revoked') {
      await recordEvent(
        { db: tx, now },
        {
          type: 'api_key.revoked',
          workspaceId: key.workspace_id,
          projectId: row.projectId,
          environmentId: row.environmentId,
          subjectId: key.id,
        data: { apiKey, reason: 'revoked', revokedBy: principal.userId },
        },
      );
    }
    return apiKey;
  });
}
