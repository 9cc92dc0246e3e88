import { readDbOf, readFresh, type VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { timeIdPage } from '../db/cursors';
import { ServiceError } from '../errors/service-error';
import { REQUEST_BODY_RETENTION_DAYS } from './partitions';
import { requestIdTime } from './request-id';
import type { RequestLogQuery } from './schemas';
import { findEnvironmentIdsOfKind, findRequestLog, findRequestLogs, type RequestLogListRow, type RowNames, type ShownSince } from './store';

/**
 * Request-log search over the given workspaces (those where the person holds `logs:read`, each
 * with the instant from which its retention shows rows, read by the route on the primary),
 * newest first, keyset-paginated on (time, id) (`nextCursor`). The rows come from the read
 * replica when there is one.
 */
export async function searchRequestLogs(ctx: VerbContext, { shownSince, query }: { shownSince: ShownSince; query: RequestLogQuery }) {
  const reader = readDbOf(ctx);
  const environmentIds = query.environment ? await findEnvironmentIdsOfKind(reader, { workspaceIds: [...shownSince.keys()], kind: query.environment }) : [];
  const rows = await findNewestFirst(reader, { shownSince, query, environmentIds }, ctx.now);
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { logs: page.map(toView), nextCursor };
}

/**
 * How far back each read of a search without a lower bound of its own looks, in days before where
 * its page starts (now, `to` or the cursor; the first read up to an hour after it), newest first;
 * past the last, one read takes the rest.
 * A read plans over the day partitions its window covers, not all of them: over every partition a
 * first page spent 5–14 ms planning at ~99 days (docs/performance.md), and a workspace may keep
 * 3,650. Most pages fill from the first window.
 */
export const SEARCH_WINDOW_DAYS = [1, 7, 30, 90, 365] as const;

/**
 * The search's rows (`limit + 1`, for the next page), newest first: at once when the query bounds
 * its own time (`from`, or the minute a UUIDv7 request id carries), else read window after widening window until
 * the page is full or nothing older can be shown.
 */
async function findNewestFirst(reader: DbOrTx, search: Parameters<typeof findRequestLogs>[1], now: Date): Promise<NamedRow[]> {
  const { query, shownSince } = search;
  if (query.from || (query.requestId && requestIdTime(query.requestId))) return findRequestLogs(reader, search);
  const startsAt = Math.min(now.getTime(), query.to ? Date.parse(query.to) : Infinity, query.cursor ? Date.parse(query.cursor.split('|')[0]) : Infinity);
  // The oldest instant any of the workspaces shows, when each has one: no window goes past it.
  const sinces = [...shownSince.values()];
  const oldestShown = sinces.length > 0 && sinces.every((since) => since !== null) ? Math.min(...sinces.map((since) => since!.getTime())) : null;
  const rows: NamedRow[] = [];
  // Nor do they look more than an hour ahead: the empty days the minute job makes ahead would be
  // planned over by every first read. A request is stamped as it arrives (an hour ahead is a clock gone wrong).
  let before = new Date(startsAt + 3_600_000);
  for (const days of [...SEARCH_WINDOW_DAYS, null]) {
    const from = days === null ? null : new Date(startsAt - days * 86_400_000);
    const taken = await findRequestLogs(reader, { ...search, query: { ...query, limit: query.limit - rows.length }, window: { from, before } });
    rows.push(...taken);
    const done = rows.length > query.limit || (query.requestId !== undefined && rows.length > 0); // one row a request id
    if (done || from === null || (oldestShown !== null && from.getTime() <= oldestShown)) break;
    before = from;
  }
  return rows;
}

/**
 * GET /v1/request-logs/{requestId}: one request with its address, user agent and the bodies the
 * log kept, in the workspaces where the person holds `logs:read` (found by the route, with their retention).
 */
export async function getRequestLog(ctx: VerbContext, { shownSince, requestId }: { shownSince: ShownSince; requestId: string }) {
  const { value: row } = await readFresh(ctx, (db) => findRequestLog(db, shownSince, requestId));
  if (!row) throw new ServiceError('not_found', `No request ${requestId} in the request log of your workspaces.`);
  return {
    ...toView(row),
    ip: row.ip,
    userAgent: row.userAgent,
    requestBody: row.requestBody,
    responseBody: row.responseBody,
    bodiesKeptUntil: new Date(row.createdAt.getTime() + REQUEST_BODY_RETENTION_DAYS * 86_400_000).toISOString(),
  };
}

type NamedRow = RequestLogListRow & RowNames;

/** A row as the API shows it: with the quote it created, its key's name, its member's email and its environment's kind. */
function toView(row: NamedRow) {
  return {
    requestId: row.requestId,
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    principal: row.principal,
    caller: row.caller,
    portal: row.portal,
    apiKeyId: row.apiKeyId,
    apiKeyName: row.apiKeyName,
    userId: row.userId,
    memberEmail: row.memberEmail,
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    environmentId: row.environmentId,
    environment: row.environment,
    businessId: row.businessId,
    latencyMs: row.latencyMs,
    testFault: row.testFault,
    createdAt: row.createdAt.toISOString(),
    quoteIntentId: row.quoteIntentId,
  };
}
