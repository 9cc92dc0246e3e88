import { withTransaction, type VerbContext } from '../context/verb-context';
import { recordEvent } from '../events/record-event';
import { lockEndedGraces, setKeyStatus } from './store';
import { toApiKeyView } from './to-api-key-view';

/**
 * The periodic sweep of spec 3.2: rotating keys whose grace window has ended become revoked.
 * Authentication already refuses them from `revokedAt` on; the sweep makes the status say so
 * and tells webhooks. Safe to run from several instances at once (SKIP LOCKED).
 */
export async function sweepRotatedKeys(ctx: VerbContext): Promise<number> {
  const { now } = ctx;
  return withTransaction(ctx, async (tx) => {
    const due = await lockEndedGraces(tx.db, now);
    for (const id of due) {
      const row = await setKeyStatus(tx.db, id, { status: 'revoked' });
      await recordEvent(tx, {
        type: 'api_key.revoked',
        workspaceId: row.workspaceId,
        projectId: row.projectId,
        environmentId: row.environmentId,
        subjectId: id,
        data: { apiKey: toApiKeyView(row, now), reason: 'rotation_grace_ended' },
      });
    }
    return due.length;
  });
}
