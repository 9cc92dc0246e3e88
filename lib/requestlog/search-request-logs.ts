import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { ServiceError } from '../errors/service-error';
import { REQUEST_BODY_RETENTION_DAYS } from './forget-request-log-bodies';
import type { Caller } from './request-log-writer';
import type { RequestLogQuery } from './schemas';

/**
 * Request-log search over the given workspaces (those where the person holds `logs:read`, found
 * by the route), newest first, keyset-paginated on the log's sequence (`nextCursor`).
 */
export async function searchRequestLogs({ db }: VerbContext, { workspaceIds, query }: { workspaceIds: string[]; query: RequestLogQuery }) {
  const environments = await db.environment.findMany({
    where: { project: { workspaceId: { in: workspaceIds } }, ...(query.environment ? { kind: query.environment } : {}) },
    select: { id: true, kind: true },
  });
  const statusRange = query.statusClass ? Number(query.statusClass[0]) * 100 : null;
  const where: Prisma.RequestLogWhereInput = {
    workspaceId: { in: workspaceIds },
    requestId: query.requestId,
    method: query.method,
    caller: query.caller,
    portal: query.portal === undefined ? undefined : query.portal === 'only',
    status: query.status ?? (statusRange ? { gte: statusRange, lt: statusRange + 100 } : undefined),
    path: query.path ? { startsWith: query.path } : undefined,
    apiKeyId: query.apiKeyId,
    projectId: query.projectId,
    businessId: query.businessId,
    environmentId: query.environment ? { in: environments.map((e) => e.id) } : undefined,
    createdAt: query.from || query.to ? { gte: query.from ? new Date(query.from) : undefined, lte: query.to ? new Date(query.to) : undefined } : undefined,
    id: { ...(await idRangeOf(db, query)), ...(query.cursor ? { lt: BigInt(query.cursor) } : {}) },
  };
  const rows = await db.requestLog.findMany({ where, orderBy: { id: 'desc' }, take: query.limit + 1, select: listSelect });
  const page = rows.slice(0, query.limit);
  const views = await toViews(db, page, environments);
  return { logs: views, nextCursor: rows.length > query.limit ? String(page[page.length - 1].id) : null };
}

/**
 * GET /v1/request-logs/{requestId}: one request with its address, user agent and the bodies the
 * log kept, in the workspaces where the person holds `logs:read` (found by the route).
 */
export async function getRequestLog({ db }: VerbContext, { workspaceIds, requestId }: { workspaceIds: string[]; requestId: string }) {
  const row = await db.requestLog.findFirst({
    where: { requestId, workspaceId: { in: workspaceIds } },
    select: { ...listSelect, ip: true, userAgent: true, requestBody: true, responseBody: true },
  });
  if (!row) throw new ServiceError('not_found', `No request ${requestId} in the request log of your workspaces.`);
  const environments = row.environmentId ? await db.environment.findMany({ where: { id: row.environmentId }, select: { id: true, kind: true } }) : [];
  const [view] = await toViews(db, [row], environments);
  return {
    ...view,
    ip: row.ip,
    userAgent: row.userAgent,
    requestBody: row.requestBody,
    responseBody: row.responseBody,
    bodiesKeptUntil: new Date(row.createdAt.getTime() + REQUEST_BODY_RETENTION_DAYS * 86_400_000).toISOString(),
  };
}

const listSelect = {
  id: true,
  requestId: true,
  method: true,
  path: true,
  status: true,
  errorCode: true,
  principal: true,
  caller: true,
  portal: true,
  apiKeyId: true,
  userId: true,
  workspaceId: true,
  projectId: true,
  environmentId: true,
  businessId: true,
  latencyMs: true,
  createdAt: true,
} satisfies Prisma.RequestLogSelect;

type ListRow = Prisma.RequestLogGetPayload<{ select: typeof listSelect }>;

/** Rows as the API shows them: with the quote each created, its key's name and its member's email. */
async function toViews(db: DbOrTx, page: ListRow[], environments: { id: string; kind: 'test' | 'live' }[]) {
  const keyIds = [...new Set(page.flatMap((r) => (r.apiKeyId ? [r.apiKeyId] : [])))];
  const userIds = [...new Set(page.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const [quotes, keys, users] = await Promise.all([
    db.quoteIntent.findMany({ where: { requestCorrelationId: { in: page.map((r) => r.requestId) } }, select: { id: true, requestCorrelationId: true } }),
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }) : [],
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [],
  ]);
  const quoteByRequest = new Map(quotes.map((q) => [q.requestCorrelationId, q.id]));
  const keyName = new Map(keys.map((k) => [k.id, k.name]));
  const email = new Map(users.map((u) => [u.id, u.email]));
  const kindById = new Map(environments.map((e) => [e.id, e.kind]));
  return page.map((row) => ({
    requestId: row.requestId,
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    principal: row.principal as 'anonymous' | 'api_key' | 'session',
    caller: row.caller as Caller,
    portal: row.portal,
    apiKeyId: row.apiKeyId,
    apiKeyName: row.apiKeyId ? (keyName.get(row.apiKeyId) ?? null) : null,
    userId: row.userId,
    memberEmail: row.userId ? (email.get(row.userId) ?? null) : null,
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    environmentId: row.environmentId,
    environment: row.environmentId ? (kindById.get(row.environmentId) ?? null) : null,
    businessId: row.businessId,
    latencyMs: row.latencyMs,
    createdAt: row.createdAt.toISOString(),
    quoteIntentId: quoteByRequest.get(row.requestId) ?? null,
  }));
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
