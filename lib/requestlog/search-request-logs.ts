import { readDbOf, readFresh, type VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { timeIdPage } from '../db/cursors';
import { ServiceError } from '../errors/service-error';
import { REQUEST_BODY_RETENTION_DAYS } from './partitions';
import { shownSinceOf } from './retention';
import type { RequestLogQuery } from './schemas';
import {
  findEnvironmentKinds,
  findKeyNames,
  findQuotesOfRequests,
  findRequestLog,
  findRequestLogs,
  findUserEmails,
  type Caller,
  type RequestLogListRow,
} from './store';

/**
 * Request-log search over the given workspaces (those where the person holds `logs:read`, found
 * by the route), each within its retention (retention.ts), newest first, keyset-paginated on
 * (time, id) (`nextCursor`). The rows come from the read replica when there is one; the
 * retention, from the primary, so that a shortened one hides older rows at once.
 */
export async function searchRequestLogs(ctx: VerbContext, { workspaceIds, query }: { workspaceIds: string[]; query: RequestLogQuery }) {
  const reader = readDbOf(ctx);
  const [environments, shownSince] = await Promise.all([
    findEnvironmentKinds(reader, { workspaceIds, kind: query.environment }),
    shownSinceOf(ctx.db, workspaceIds, ctx.now),
  ]);
  const rows = await findRequestLogs(reader, { shownSince, query, environmentIds: environments.map((e) => e.id) });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  const views = await toViews(reader, page, environments);
  return { logs: views, nextCursor };
}

/**
 * GET /v1/request-logs/{requestId}: one request with its address, user agent and the bodies the
 * log kept, in the workspaces where the person holds `logs:read` (found by the route).
 */
export async function getRequestLog(ctx: VerbContext, { workspaceIds, requestId }: { workspaceIds: string[]; requestId: string }) {
  const shownSince = await shownSinceOf(ctx.db, workspaceIds, ctx.now);
  const { value: row, db } = await readFresh(ctx, (db) => findRequestLog(db, shownSince, requestId));
  if (!row) throw new ServiceError('not_found', `No request ${requestId} in the request log of your workspaces.`);
  const environments = row.environmentId ? await findEnvironmentKinds(db, { id: row.environmentId }) : [];
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

/** Rows as the API shows them: with the quote each created, its key's name and its member's email. */
async function toViews(db: DbOrTx, page: RequestLogListRow[], environments: { id: string; kind: 'test' | 'live' }[]) {
  const keyIds = [...new Set(page.flatMap((r) => (r.apiKeyId ? [r.apiKeyId] : [])))];
  const userIds = [...new Set(page.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const [quotes, keys, users] = await Promise.all([
    findQuotesOfRequests(db, page.map((r) => r.requestId)),
    findKeyNames(db, keyIds),
    findUserEmails(db, userIds),
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
    testFault: row.testFault,
    createdAt: row.createdAt.toISOString(),
    quoteIntentId: quoteByRequest.get(row.requestId) ?? null,
  }));
}
