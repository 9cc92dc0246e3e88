import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import type { EnvironmentName } from '../auth/principal';
import { secretColumns } from './endpoint-secret-columns';
import { toEndpointView } from './endpoint-view';
import { mintSigningSecret } from './endpoint-secret-columns';
import { requireSealingKey } from '../sealing/check-sealing-key';
import { findProjectEnvironment } from '../tenancy/store';
import { insertEndpoint } from './store';
import { requireDeliverableTarget } from './target-policy';

/**
 * POST /v1/webhook-endpoints: bound to one environment; the secret is shown here once. A URL
 * delivery would refuse is refused here (422 `webhook_target_refused`).
 */
export async function createEndpoint(
  ctx: VerbContext<SessionPrincipal>,
  input: { projectId: string; environment: EnvironmentName; url: string; eventTypes?: string[]; description?: string },
) {
  const { db, principal, now } = ctx;
  const environment = await findProjectEnvironment(db, { projectId: input.projectId, kind: input.environment });
  const notFound = `Project ${input.projectId} does not exist.`;
  if (!environment) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, environment.workspaceId, 'webhooks:manage', notFound);
  requireDeliverableTarget(input.url);
  await requireSealingKey(ctx, 'Webhook signing secrets');
  const secret = mintSigningSecret();
  const row = await insertEndpoint(db, {
    workspaceId: environment.workspaceId,
    projectId: input.projectId,
    environmentId: environment.id,
    url: input.url,
    eventTypes: input.eventTypes ?? [],
    description: input.description ?? null,
    createdAt: now,
    updatedAt: now,
    ...secretColumns(secret),
  });
  return { endpoint: toEndpointView(row, now), secret };
}
