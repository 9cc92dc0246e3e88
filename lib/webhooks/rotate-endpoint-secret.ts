import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { secretColumns } from './endpoint-secret-columns';
import { endpointSelect, toEndpointView } from './endpoint-view';
import { requireEndpoint } from './require-endpoint';
import { mintSigningSecret } from './secret-box';
import { requireSigningKey } from './signing-key';

/**
 * New signing secret, shown once. For `overlapMinutes` the old secret keeps signing too, so
 * every delivery carries two v1 values and receivers can switch without losing any.
 */
export async function rotateEndpointSecret(
  ctx: VerbContext<SessionPrincipal>,
  { endpointId, overlapMinutes }: { endpointId: string; overlapMinutes: number },
) {
  const { now } = ctx;
  await requireSigningKey(ctx);
  return withTransaction(ctx, async (tx) => {
    // NO KEY UPDATE serialises rotations without blocking the deliveries that quotes write for
    // this endpoint (their foreign-key check holds KEY SHARE on the row).
    await tx.db.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR NO KEY UPDATE`;
    await requireEndpoint(tx, { endpointId });
    const current = await tx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { secretCiphertext: true } });
    const secret = mintSigningSecret();
    const row = await tx.db.webhookEndpoint.update({
      where: { id: endpointId },
      data: {
        ...secretColumns(secret),
        previousSecretCiphertext: overlapMinutes > 0 ? current.secretCiphertext : null,
        previousSecretExpiresAt: overlapMinutes > 0 ? new Date(now.getTime() + overlapMinutes * 60_000) : null,
        updatedAt: now,
      },
      select: endpointSelect,
    });
    return { endpoint: toEndpointView(row, now), secret };
  });
}
