import type { Prisma } from '../db/generated/client';
import type { EndpointView } from './schemas';

export const endpointSelect = {
  id: true,
  workspaceId: true,
  projectId: true,
  environmentId: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  secretPrefix: true,
  secretLast4: true,
  previousSecretExpiresAt: true,
  createdAt: true,
  updatedAt: true,
  environment: { select: { kind: true } },
} satisfies Prisma.WebhookEndpointSelect;

type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointSelect }>;

export function toEndpointView(row: EndpointRow, now: Date): EndpointView {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    projectId: row.projectId,
    environment: row.environment.kind,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    status: row.status,
    secretPrefix: row.secretPrefix,
    secretLast4: row.secretLast4,
    previousSecretExpiresAt: overlap?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
