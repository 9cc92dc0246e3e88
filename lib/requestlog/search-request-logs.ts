import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { RequestLogQuery } from './schemas';

/**
 * Request-log search over the given workspaces (those where the person holds `logs:read`, found
 * by the route), newest first, keyset-paginated on the log's sequence (`nextCursor`).
 */
export async function searchRequestLogs(db: DbOrTx, workspaceIds: string[], query: RequestLogQuery) {
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
    id: { ...(await idRangeOf(db, query)), ...(query.cursor ? { lt: BigInt(query.cursor) } : {}) },
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

/**
 * A time window as a range of log ids (ids grow with time): the newest-first scan then starts
 * and stops inside the window instead of walking every newer row. Rows are written in batches
 * up to a moment after their request, so the id bounds come from a window widened by a minute;
 * the exact created_at condition still applies.
 */
const WRITE_DELAY_SLACK_MS = 60_000;
async function idRangeOf(db: DbOrTx, query: RequestLogQuery): Promise<{ gte?: bigint; lte?: bigint }> {
  const [first, last] = await Promise.all([
    query.from
      ? db.requestLog.findFirst({
          where: { createdAt: { gte: new Date(Date.parse(query.from) - WRITE_DELAY_SLACK_MS) } },
          orderBy: { createdAt: 'asc' },
          select: { id: true },
        })
      : null,
    query.to
      ? db.requestLog.findFirst({
          where: { createdAt: { lte: new Date(Date.parse(query.to) + WRITE_DELAY_SLACK_MS) } },
          orderBy: { createdAt: 'desc' },
          select: { id: true },
        })
      : null,
  ]);
  return {
    ...(query.from ? { gte: first?.id ?? BigInt('9223372036854775807') } : {}),
    ...(query.to ? { lte: last?.id ?? 0n } : {}),
  };
}
