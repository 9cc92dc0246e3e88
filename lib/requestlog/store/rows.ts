import type { DbOrTx } from '../../db/client';
import { requestIdTime } from '../request-id';
import { sqlRows } from '../../db/sql';
import { Table } from '../../db/statement';
import type { RequestLogQuery } from '../schemas';
import { storableOrNull } from '../storable-text';
import type { ShownSince } from './retention';

// ---------------------------------------------------------------------------------------------
// Rows and the column map

/** Who called, as the portal names it: an API key on the account surface is an `account_key`. */
export type Caller = 'api_key' | 'account_key' | 'member' | 'anonymous';

/**
 * One /v1 request as the request log keeps it: ids and outcome, and redacted, capped bodies of
 * writes and failures (redact-body.ts); never credentials.
 */
export type RequestLogEntry = {
  requestId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  principal: 'anonymous' | 'api_key' | 'session';
  caller: Caller;
  portal: boolean;
  ip: string | null;
  userAgent: string | null;
  requestBody: string | null;
  responseBody: string | null;
  apiKeyId: string | null;
  userId: string | null;
  workspaceId: string | null;
  projectId: string | null;
  environmentId: string | null;
  businessId: string | null;
  latencyMs: number;
  /** The failure a Test request asked for (`Test-Fault`), null otherwise. */
  testFault: string | null;
  createdAt: Date;
};

/** The row's columns; the bodies go to request_log_bodies. */
const requestLogs = new Table<Omit<RequestLogEntry, 'requestBody' | 'responseBody'>>('request_logs', {
  requestId: ['request_id', 'text'],
  method: ['method', 'text'],
  path: ['path', 'text'],
  status: ['status', 'int'],
  errorCode: ['error_code', 'text'],
  principal: ['principal', 'text'],
  caller: ['caller', 'text'],
  portal: ['portal', 'boolean'],
  ip: ['ip', 'text'],
  userAgent: ['user_agent', 'text'],
  apiKeyId: ['api_key_id', 'uuid'],
  userId: ['user_id', 'uuid'],
  workspaceId: ['workspace_id', 'uuid'],
  projectId: ['project_id', 'uuid'],
  environmentId: ['environment_id', 'uuid'],
  businessId: ['business_id', 'uuid'],
  latencyMs: ['latency_ms', 'int'],
  testFault: ['test_fault', 'text'],
  createdAt: ['created_at', 'timestamptz'],
});

/** What a quote's trace shows of the request that created it. */
const TRACED_REQUEST_FIELDS = ['requestId', 'method', 'path', 'status', 'principal', 'apiKeyId', 'latencyMs', 'createdAt'] as const;
export type TracedRequest = Pick<RequestLogEntry, (typeof TRACED_REQUEST_FIELDS)[number]>;

/**
 * The request that created a quote made at `at`: its row is stamped with the quote's own clock
 * reading, so only the day partitions of a minute either side are read. Planned for its values,
 * as every read of the log here: as a prepared statement, its generic plan locked every day
 * partition of the log on each call before pruning them, and with years of days kept (up to
 * 3,650), concurrent traces ran PostgreSQL out of its lock table ("out of shared memory").
 */
export async function findTracedRequest(db: DbOrTx, requestId: string, at: Date): Promise<TracedRequest | null> {
  const [row] = await sqlRows<TracedRequest>(
    db,
    `SELECT ${requestLogs.selectList('r', TRACED_REQUEST_FIELDS)} FROM request_logs r
     WHERE r.request_id = $1::text AND r.created_at >= $2::timestamptz AND r.created_at < $3::timestamptz LIMIT 1`,
    [requestId, new Date(at.getTime() - 60_000), new Date(at.getTime() + 60_000)],
    { prepared: false },
  );
  return row ?? null;
}

/** What a log row's view shows; bodies and the caller's address only in the detail. */
const LIST_FIELDS = [
  'requestId', 'method', 'path', 'status', 'errorCode', 'principal', 'caller', 'portal', 'apiKeyId', 'userId',
  'workspaceId', 'projectId', 'environmentId', 'businessId', 'latencyMs', 'testFault', 'createdAt',
] as const;
const DETAIL_FIELDS = [...LIST_FIELDS, 'ip', 'userAgent'] as const;

/** A row of a search: its sequence number (as text: the cursor's tie-break) and what the list shows. */
export type RequestLogListRow = Pick<RequestLogEntry, (typeof LIST_FIELDS)[number]> & { id: string };
export type RequestLogDetailRow = Pick<RequestLogEntry, (typeof DETAIL_FIELDS)[number]> & { id: string; requestBody: string | null; responseBody: string | null };

// ---------------------------------------------------------------------------------------------
// Writing

/** "None" in the hourly rollup's keys (a key column cannot be null). */
export const NONE_ID = '00000000-0000-0000-0000-000000000000';

/** Every column of the batch, unnested from one array parameter each (the row's, then the bodies). */
const INPUT_COLUMNS = [...requestLogs.fields.map((field) => requestLogs.columns[field]), ['request_body', 'text'], ['response_body', 'text']] as const;

/**
 * One statement for a whole batch, one array parameter per column unnested: the same text
 * whatever the batch's size, so it is prepared once per connection. It writes the rows, their
 * bodies (request_log_bodies), and counts the rows it wrote into `request_log_hourly`, so the
 * rollup equals the rows; the rollup's rows are taken in key order, so that two processes'
 * batches lock them in the same order.
 */
const INSERT_REQUEST_LOGS = `WITH input AS (
       SELECT * FROM unnest(${INPUT_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
         AS t(${INPUT_COLUMNS.map(([column]) => column).join(', ')})
     ), written AS (
       INSERT INTO ${requestLogs.name} (${requestLogs.fields.map((field) => requestLogs.columns[field][0]).join(', ')})
       SELECT ${requestLogs.fields.map((field) => requestLogs.columns[field][0]).join(', ')} FROM input
       ON CONFLICT (request_id, created_at) DO NOTHING
       RETURNING request_id, workspace_id, business_id, created_at, api_key_id, portal, status
     ), bodies AS (
       INSERT INTO request_log_bodies (request_id, created_at, request_body, response_body)
       SELECT i.request_id, i.created_at, i.request_body, i.response_body FROM input i JOIN written w ON w.request_id = i.request_id AND w.created_at = i.created_at
       WHERE i.request_body IS NOT NULL OR i.response_body IS NOT NULL
     )
     INSERT INTO request_log_hourly (workspace_id, business_id, hour, api_key_id, portal, status_class, requests)
     SELECT workspace_id, COALESCE(business_id, '${NONE_ID}'), date_trunc('hour', created_at, 'UTC'), COALESCE(api_key_id, '${NONE_ID}'),
       portal, (status / 100)::smallint, count(*)
     FROM written WHERE workspace_id IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
     ON CONFLICT (workspace_id, business_id, hour, api_key_id, portal, status_class)
       DO UPDATE SET requests = request_log_hourly.requests + EXCLUDED.requests`;

/** The text columns: whatever a stranger put in them is escaped where PostgreSQL would refuse it (storable-text.ts). */
const TEXT_FIELDS = new Set(requestLogs.fields.filter((field) => requestLogs.columns[field][1] === 'text'));

export async function insertRequestLogs(db: DbOrTx, batch: RequestLogEntry[]): Promise<void> {
  await sqlRows(db, INSERT_REQUEST_LOGS, [
    ...requestLogs.fields.map((field) =>
      TEXT_FIELDS.has(field) ? batch.map((entry) => storableOrNull(entry[field] as string | null)) : batch.map((entry) => entry[field]),
    ),
    batch.map((entry) => storableOrNull(entry.requestBody)),
    batch.map((entry) => storableOrNull(entry.responseBody)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Searching

/** The ids of the workspaces' environments of one kind: what a search for Test or Live reads. */
export async function findEnvironmentIdsOfKind(db: DbOrTx, { workspaceIds, kind }: { workspaceIds: string[]; kind: 'test' | 'live' }): Promise<string[]> {
  const environments = await db.environment.findMany({ where: { project: { workspaceId: { in: workspaceIds } }, kind }, select: { id: true } });
  return environments.map((e) => e.id);
}

/**
 * The conditions of a search, written as SQL with their values: only those the query has, so
 * that each text is sent unnamed and planned for its values (the planner prunes the day
 * partitions by the time bounds and picks the index for the workspaces' row counts). Not a
 * Prisma query: its engine cost a page more CPU than PostgreSQL spent on it (docs/performance.md).
 */
class Conditions {
  readonly values: unknown[] = [];
  private readonly parts: string[] = [];

  /** `$n::type` for the value. */
  param(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }

  add(condition: string): this {
    this.parts.push(condition);
    return this;
  }

  /** Rows from `from` (inclusive) to `before` (exclusive); either may be absent. */
  during(from: Date | null | undefined, before: Date | null | undefined): this {
    if (from) this.add(`r.created_at >= ${this.param(from, 'timestamptz')}`);
    if (before) this.add(`r.created_at < ${this.param(before, 'timestamptz')}`);
    return this;
  }

  /** After a `<time>|<sequence>` cursor, newest first: the time bound alone lets the index start there. */
  afterCursor(cursor: string | undefined): this {
    if (!cursor) return this;
    const [time, id] = cursor.split('|');
    const at = this.param(new Date(time), 'timestamptz');
    return this.add(`r.created_at <= ${at} AND (r.created_at < ${at} OR r.id < ${this.param(id, 'bigint')})`);
  }

  /** Rows of the workspaces, each from its own first shown instant (workspaces grouped by it). */
  shown(shownSince: ShownSince): this {
    const byInstant = new Map<number | null, string[]>();
    for (const [workspaceId, since] of shownSince) {
      const key = since?.getTime() ?? null;
      byInstant.set(key, [...(byInstant.get(key) ?? []), workspaceId]);
    }
    if (byInstant.size === 0) return this.add('false');
    const groups = [...byInstant].map(([since, workspaceIds]) => {
      const ofWorkspaces = workspaceIds.length === 1 ? `r.workspace_id = ${this.param(workspaceIds[0], 'uuid')}` : `r.workspace_id = ANY(${this.param(workspaceIds, 'uuid[]')})`;
      return since === null ? ofWorkspaces : `${ofWorkspaces} AND r.created_at >= ${this.param(new Date(since), 'timestamptz')}`;
    });
    return this.add(groups.length === 1 ? groups[0] : groups.map((group) => `(${group})`).join(' OR '));
  }

  /** Where a request id's row can be: within a minute of the time a UUIDv7 id carries (only that day's partition is read). */
  ofRequest(requestId: string): this {
    this.add(`r.request_id = ${this.param(requestId, 'text')}`);
    const at = requestIdTime(requestId);
    return at ? this.during(new Date(at.getTime() - 60_000), new Date(at.getTime() + 60_000)) : this;
  }

  get sql(): string {
    return this.parts.length === 0 ? 'true' : this.parts.map((part) => `(${part})`).join(' AND ');
  }
}

/** What a row's view names besides the row: the quote its request created, its key's name, its member's email, its environment's kind. */
export type RowNames = { quoteIntentId: string | null; apiKeyName: string | null; memberEmail: string | null; environment: 'test' | 'live' | null };

const NAME_COLUMNS = `q.id::text AS "quoteIntentId", k.name AS "apiKeyName", u.email AS "memberEmail", e.kind::text AS environment`;
/** Joined to the rows `r` (each by its index): one statement, not a read per kind of name. */
const NAME_JOINS = `LEFT JOIN api_keys k ON k.id = r.api_key_id LEFT JOIN users u ON u.id = r.user_id LEFT JOIN environments e ON e.id = r.environment_id
  LEFT JOIN LATERAL (SELECT id FROM quote_intents WHERE request_correlation_id = r.request_id LIMIT 1) q ON true`;

const NEWEST_FIRST = 'ORDER BY r.created_at DESC, r.id DESC';

/** Newest first, as the log's (…, created_at DESC, id DESC) indexes hold it; with their names when a view shows them. */
async function findNewestRows<Named extends boolean>(db: DbOrTx, where: Conditions, take: number, named: Named) {
  const rows = `SELECT r.* FROM request_logs r WHERE ${where.sql} ${NEWEST_FIRST} LIMIT ${where.param(take, 'int')}`;
  const text = named
    ? `SELECT r.id::text AS id, ${requestLogs.selectList('r', LIST_FIELDS)}, ${NAME_COLUMNS} FROM (${rows}) r ${NAME_JOINS} ${NEWEST_FIRST}`
    : `SELECT r.id::text AS id, ${requestLogs.selectList('r', LIST_FIELDS)} FROM (${rows}) r ${NEWEST_FIRST}`;
  return sqlRows<Named extends true ? RequestLogListRow & RowNames : RequestLogListRow>(db, text, where.values, { prepared: false });
}

/**
 * The query's rows in the workspaces, newest first by the request's time (ties by id), after
 * the cursor: `query.limit + 1` of them, so that the caller sees whether there is a next page.
 * `environmentIds` are those of the queried environment kind, when the query names one.
 */
export async function findRequestLogs(
  db: DbOrTx,
  { shownSince, query, environmentIds, window }: {
    shownSince: ShownSince;
    query: RequestLogQuery;
    environmentIds: string[];
    /** Only rows from `from` (inclusive) to `before` (exclusive), each unbounded when null: one of a search's widening reads. */
    window?: { from: Date | null; before: Date | null };
  },
): Promise<(RequestLogListRow & RowNames)[]> {
  const where = new Conditions().shown(shownSince);
  if (query.requestId) where.ofRequest(query.requestId);
  if (query.method) where.add(`r.method = ${where.param(query.method, 'text')}`);
  if (query.caller) where.add(`r.caller = ${where.param(query.caller, 'text')}`);
  if (query.portal !== undefined) where.add(`r.portal = ${where.param(query.portal === 'only', 'boolean')}`);
  if (query.status !== undefined) where.add(`r.status = ${where.param(query.status, 'int')}`);
  else if (query.statusClass) {
    const lowest = Number(query.statusClass[0]) * 100;
    where.add(`r.status >= ${where.param(lowest, 'int')} AND r.status < ${where.param(lowest + 100, 'int')}`);
  }
  if (query.path) where.add(`starts_with(r.path, ${where.param(query.path, 'text')})`);
  if (query.apiKeyId) where.add(`r.api_key_id = ${where.param(query.apiKeyId, 'uuid')}`);
  if (query.projectId) where.add(`r.project_id = ${where.param(query.projectId, 'uuid')}`);
  if (query.businessId) where.add(`r.business_id = ${where.param(query.businessId, 'uuid')}`);
  if (query.environment) where.add(`r.environment_id = ANY(${where.param(environmentIds, 'uuid[]')})`);
  if (query.from) where.add(`r.created_at >= ${where.param(new Date(query.from), 'timestamptz')}`);
  if (query.to) where.add(`r.created_at <= ${where.param(new Date(query.to), 'timestamptz')}`);
  where.afterCursor(query.cursor);
  if (window) where.during(window.from, window.before);
  return findNewestRows(db, where, query.limit + 1, true);
}

/** One request, with what the log kept of its exchange, if it is in one of the workspaces and still shown. */
export async function findRequestLog(db: DbOrTx, shownSince: ShownSince, requestId: string): Promise<(RequestLogDetailRow & RowNames) | null> {
  const where = new Conditions().shown(shownSince).ofRequest(requestId);
  const [row] = await sqlRows<RequestLogDetailRow & RowNames>(
    db,
    `SELECT r.id::text AS id, ${requestLogs.selectList('r', DETAIL_FIELDS)}, b.request_body AS "requestBody", b.response_body AS "responseBody", ${NAME_COLUMNS}
     FROM (SELECT r.* FROM request_logs r WHERE ${where.sql} LIMIT 1) r
     LEFT JOIN request_log_bodies b ON b.request_id = r.request_id AND b.created_at = r.created_at ${NAME_JOINS}`,
    where.values,
    { prepared: false },
  );
  return row ?? null;
}

/** An account's requests in one environment, newest first: `take` rows after the cursor. */
export async function findRequestLogsOfEnvironment(
  db: DbOrTx,
  { projectId, environmentId, shownSince }: { projectId: string; environmentId: string; shownSince: Date | null },
  { cursor, take }: { cursor?: string; take: number },
): Promise<RequestLogListRow[]> {
  const where = new Conditions();
  where.add(`r.project_id = ${where.param(projectId, 'uuid')} AND r.environment_id = ${where.param(environmentId, 'uuid')}`);
  where.during(shownSince, null).afterCursor(cursor);
  return findNewestRows(db, where, take, false);
}
