import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import type { EnvironmentName } from '../auth/principal';
import { secretColumns } from './endpoint-secret-columns';
import { endpointSelect, toEndpointView } from './endpoint-view';
import { mintSigningSecret } from './secret-box';
import { requireSigningKey } from './signing-key';

/** POST /v1/webhook-endpoints: bound to one environment; the secret is shown here once. */
export async function createEndpoint(
  ctx: VerbContext<SessionPrincipal>,
  input: { projectId: string; environment: EnvironmentName; url: string; eventTypes?: string[]; description?: string },
) {
  const { db, principal, now } = ctx;
  const environment = await db.environment.findUnique({
    where: { projectId_kind: { projectId: input.projectId, kind: input.environment } },
    select: { id: true, project: { select: { workspaceId: true } } },
  });
  const notFound = `Project ${input.projectId} does not exist.`;
  if (!environment) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, environment.project.workspaceId, 'webhooks:manage', notFound);
  await requireSigningKey(ctx);
  const secret = mintSigningSecret();
  const row = await db.webhookEndpoint.create({
    data: {
      workspaceId: environment.project.workspaceId,
      projectId: input.projectId,
      environmentId: environment.id,
      url: input.url,
      eventTypes: input.eventTypes ?? [],
      description: input.description ?? null,
      createdAt: now,
      updatedAt: now,
      ...secretColumns(secret),
    },
    select: endpointSelect,
  });
  return { endpoint: toEndpointView(row, now), secret };
}
