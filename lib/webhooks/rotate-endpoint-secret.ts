import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { secretColumns } from './endpoint-secret-columns';
import { toEndpointView } from './endpoint-view';
import { requireEndpoint } from './require-endpoint';
import { mintSigningSecret } from './endpoint-secret-columns';
import { requireSealingKey } from '../sealing/check-sealing-key';
import { lockEndpoint, readEndpointSecret, replaceEndpointSecret } from './store';

/**
 * New signing secret, shown once. For `overlapMinutes` the old secret keeps signing too, so
 * every delivery carries two v1 values and receivers can switch without losing any.
 */
export async function rotateEndpointSecret(
  ctx: VerbContext<SessionPrincipal>,
  { endpointId, overlapMinutes }: { endpointId: string; overlapMinutes: number },
) {
  const { now } = ctx;
  await requireSealingKey(ctx, 'Webhook signing secrets');
  return withTransaction(ctx, async (tx) => {
    // NO KEY UPDATE serialises rotations without blocking the deliveries that quotes write for
    // this endpoint (their foreign-key check holds KEY SHARE on the row).
    await lockEndpoint(tx.db, endpointId, 'no key update');
    await requireEndpoint(tx, { endpointId });
    const current = await readEndpointSecret(tx.db, endpointId);
    const secret = mintSigningSecret();
    const row = await replaceEndpointSecret(
      tx.db,
      endpointId,
      {
        ...secretColumns(secret),
        previousSecretCiphertext: overlapMinutes > 0 ? current : null,
        previousSecretExpiresAt: overlapMinutes > 0 ? new Date(now.getTime() + overlapMinutes * 60_000) : null,
      },
      now,
    );
    return { endpoint: toEndpointView(row, now), secret };
  });
}
