import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { ServiceError } from '../errors/service-error';
import type { EnvironmentName } from '../keys/secrets';
import type { EndpointView } from './schemas';
import { cancelDeliveriesOfInactiveEndpoint } from './cancel-deliveries';
import { mintSigningSecret, sealSecret } from './secret-box';
import { requireSigningKey } from './signing-key';

const endpointSelect = {
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

function secretColumns(secret: string) {
  return { secretCiphertext: sealSecret(secret), secretPrefix: secret.slice(0, 10), secretLast4: secret.slice(-4) };
}

/** The endpoint, if it exists and the person may manage webhooks in its workspace. */
export async function requireEndpoint(db: DbOrTx, principal: SessionPrincipal, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, deletedAt: null }, select: endpointSelect });
  const notFound = `Webhook endpoint ${endpointId} does not exist.`;
  if (!endpoint) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, endpoint.workspaceId, 'webhooks:manage', notFound);
  return endpoint;
}

export type AuthorizedEndpoint = Awaited<ReturnType<typeof requireEndpoint>>;

/** POST /v1/webhook-endpoints: bound to one environment; the secret is shown here once. */
export async function createEndpoint(
  db: Db,
  principal: SessionPrincipal,
  input: { projectId: string; environment: EnvironmentName; url: string; eventTypes?: string[]; description?: string },
  now: Date,
) {
  const environment = await db.environment.findUnique({
    where: { projectId_kind: { projectId: input.projectId, kind: input.environment } },
    select: { id: true, project: { select: { workspaceId: true } } },
  });
  const notFound = `Project ${input.projectId} does not exist.`;
  if (!environment) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, environment.project.workspaceId, 'webhooks:manage', notFound);
  await requireSigningKey(db);
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

/** The endpoints of the workspaces where the person manages webhooks (found by the route). */
export async function listEndpoints(
  db: DbOrTx,
  workspaceIds: string[],
  filter: { projectId?: string; environment?: EnvironmentName },
  now: Date,
) {
  const rows = await db.webhookEndpoint.findMany({
    where: {
      deletedAt: null,
      projectId: filter.projectId,
      environment: filter.environment ? { kind: filter.environment } : undefined,
      workspaceId: { in: workspaceIds },
    },
    orderBy: { createdAt: 'asc' },
    select: endpointSelect,
  });
  return rows.map((row) => toEndpointView(row, now));
}

/**
 * PATCH (the route has found the endpoint with requireEndpoint): url, event types, description,
 * or enabled/disabled. A disabled endpoint receives nothing: disabling it cancels its pending
 * deliveries in the same transaction (they can be replayed once it is enabled again).
 */
export async function updateEndpoint(
  db: Db,
  endpointId: string,
  changes: { url?: string; eventTypes?: string[]; description?: string | null; status?: 'enabled' | 'disabled' },
  now: Date,
) {
  const update = (tx: DbOrTx) => tx.webhookEndpoint.update({ where: { id: endpointId }, data: { ...changes, updatedAt: now }, select: endpointSelect });
  if (changes.status !== 'disabled') return toEndpointView(await update(db), now);
  return withEndpointLocked(db, endpointId, async (tx) => {
    const row = await update(tx);
    await cancelDeliveriesOfInactiveEndpoint(tx, endpointId, now);
    return toEndpointView(row, now);
  });
}

/**
 * DELETE: the endpoint stops receiving at once; its delivery history is kept, and its pending
 * deliveries are canceled in the same transaction.
 */
export async function deleteEndpoint(db: Db, principal: SessionPrincipal, endpointId: string, now: Date) {
  return withEndpointLocked(db, endpointId, async (tx) => {
    await requireEndpoint(tx, principal, endpointId);
    const row = await tx.webhookEndpoint.update({
      where: { id: endpointId },
      data: { deletedAt: now, status: 'disabled', updatedAt: now },
      select: endpointSelect,
    });
    await cancelDeliveriesOfInactiveEndpoint(tx, endpointId, now);
    return toEndpointView(row, now);
  });
}

/**
 * Runs `work` in a transaction holding the endpoint FOR UPDATE, unlike a rotation: it waits for
 * transactions that have just written a delivery to this endpoint (their foreign-key check
 * holds KEY SHARE on the row), so a cancel in `work` sees those deliveries too.
 */
async function withEndpointLocked<T>(db: Db, endpointId: string, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR UPDATE`;
        return work(tx);
      });
    } catch (error) {
      // A claim leasing this endpoint's deliveries at that moment locks them in another order:
      // PostgreSQL ends one of the two as deadlocked; a claim is retried at the next tick anyway.
      if (attempt < 3 && isDeadlock(error)) continue;
      throw error;
    }
  }
}

/** Prisma reports a deadlock as P2034 from its own queries, as P2010 with PostgreSQL's code from raw SQL. */
function isDeadlock(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } };
  return e.code === 'P2034' || e.meta?.driverAdapterError?.cause?.originalCode === '40P01';
}

/**
 * New signing secret, shown once. For `overlapMinutes` the old secret keeps signing too, so
 * every delivery carries two v1 values and receivers can switch without losing any.
 */
export async function rotateEndpointSecret(
  db: Db,
  principal: SessionPrincipal,
  endpointId: string,
  overlapMinutes: number,
  now: Date,
) {
  await requireSigningKey(db);
  return db.$transaction(async (tx) => {
    // NO KEY UPDATE serialises rotations without blocking the deliveries that quotes write for
    // this endpoint (their foreign-key check holds KEY SHARE on the row).
    await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR NO KEY UPDATE`;
    await requireEndpoint(tx, principal, endpointId);
    const current = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { secretCiphertext: true } });
    const secret = mintSigningSecret();
    const row = await tx.webhookEndpoint.update({
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
