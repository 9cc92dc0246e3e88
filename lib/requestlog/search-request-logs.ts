import type { SessionPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { RequestLogQuery } from './schemas';

/**
 * Request-log search over the workspaces where the person holds `logs:read`, newest first,
 * keyset-paginated on the log's sequence (`nextCursor`).
 */
export async function searchRequestLogs(db: DbOrTx, principal: SessionPrincipal, query: RequestLogQuery) {
  const workspaceIds = (
    await db.workspaceMember.findMany({
      where: { userId: principal.userId, status: 'active', permissions: { has: 'logs:read' } },
      select: { workspaceId: true },
    })
  ).map((m) => m.workspaceId);
  if (workspaceIds.length === 0) return { logs: [], nextCursor: null };

  const environments = await db.environment.findMany({
    where: { project: { workspaceId: { in: workspaceIds } }, ...(query.environment ? { kind: query.environment } : {}) },
    select: { id: true, kind: true },
  });
  const statusRange = query.statusClass ? Number(query.statusClass[0]) * 100 : null;
  const where: Prisma.RequestLogWhereInput = {
    workspaceId: { in: workspaceIds },
    requestId: query.requestId,
    status: query.status ?? (statusRange ? { gte: statusRange, lt: statusRange + 100 } : undefined),
    path: query.path ? { startsWith: query.path } : undefined,
    apiKeyId: query.apiKeyId,
    projectId: query.projectId,
    businessId: query.businessId,
    environmentId: query.environment ? { in: environments.map((e) => e.id) } : undefined,
    createdAt: query.from || query.to ? { gte: query.from ? new Date(query.from) : undefined, lte: query.to ? new Date(query.to) : undefined } : undefined,
    id: query.cursor ? { lt: BigInt(query.cursor) } : undefined,
  };
  const rows = await db.requestLog.findMany({ where, orderBy: { id: 'desc' }, take: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const quotes = await db.quoteIntent.findMany({
    where: { requestCorrelationId: { in: page.map((r) => r.requestId) } },
    select: { id: true, requestCorrelationId: true },
  });
  const quoteByRequest = new Map(quotes.map((q) => [q.requestCorrelationId, q.id]));
  const kindById = new Map(environments.map((e) => [e.id, e.kind]));
  return {
    logs: page.map((row) => ({
      requestId: row.requestId,
      method: row.method,
      path: row.path,
      status: row.status,
      errorCode: row.errorCode,
      principal: row.principal as 'anonymous' | 'api_key' | 'session',
      apiKeyId: row.apiKeyId,
      userId: row.userId,
      workspaceId: row.workspaceId,
      projectId: row.projectId,
      environmentId: row.environmentId,
      environment: row.environmentId ? (kindById.get(row.environmentId) ?? null) : null,
      businessId: row.businessId,
      latencyMs: row.latencyMs,
      createdAt: row.createdAt.toISOString(),
      quoteIntentId: quoteByRequest.get(row.requestId) ?? null,
    })),
    nextCursor: rows.length > query.limit ? String(page[page.length - 1].id) : null,
  };
}
