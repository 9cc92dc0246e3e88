// The bare minimum a quote creation can do, for side-by-side figures: node:http + pg, no
// framework, no ORM. POST /quote reads the JSON body, then one transaction inserts an intent
// and its receipt (a price computed once at start) into the real tables, with the request's
// idempotency key. And the bare minimum of the two reads a member makes most: GET /trace/{id}
// (a quote with what explains it) and GET /request-logs (the newest page of the request log of
// the workspaces where the person may read it), each behind a session token's lookup and the
// membership check, in as few statements as a hand-written server would use: no request log of
// its own, no rate limit. Run as its own process by bench/run.ts:
// `REFERENCE_CONFIG=<json> DATABASE_URL=… PORT=0 node --import tsx bench/reference-server.ts`
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

export type ReferenceConfig = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string;
  bookVersionId: string;
  businessId: string;
  /** The receipt's computation as JSON text, priced once by the real engine. */
  computation: string;
  totalMinor: number;
};

const config = JSON.parse(process.env.REFERENCE_CONFIG ?? '{}') as ReferenceConfig;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
pool.on('error', (error) => console.error(`reference: idle connection closed: ${error.message}`));

const insertIntent = `INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id,
  business_id, status, source, idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs,
  created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, 'succeeded', 'api', 'reference', $8, $9, $10, $11, now(), now())`;
const insertReceipt = `INSERT INTO quote_receipts (id, quote_intent_id, outcome, source, book_version_id, computation,
  missing_inputs, idempotency_key, request_correlation_id, latency_ms, created_at)
  VALUES ($1, $2, 'succeeded', 'api', $3, $4, '{}', $5, $6, 0, now())`;

async function createQuote(body: string): Promise<string> {
  const request = JSON.parse(body) as { idempotencyKey?: string; offeringId?: string; factors?: unknown };
  const intentId = randomUUID();
  const receiptId = randomUUID();
  const requestId = randomUUID();
  const key = request.idempotencyKey ?? `auto_${intentId}`;
  const fingerprint = createHash('sha256').update(body).digest('hex');
  const inputs = JSON.stringify({ offeringId: request.offeringId, factors: request.factors });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query({
      name: 'insert_intent',
      text: insertIntent,
      values: [intentId, config.workspaceId, config.projectId, config.environmentId, config.bookId, config.bookVersionId,
        config.businessId, key, fingerprint, requestId, inputs],
    });
    await client.query({
      name: 'insert_receipt',
      text: insertReceipt,
      values: [receiptId, intentId, config.bookVersionId, config.computation, key, requestId],
    });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return `{"data":{"id":"${intentId}","receiptId":"${receiptId}","idempotencyKey":${JSON.stringify(key)},"totalMinor":${config.totalMinor},"computation":${config.computation}},"requestId":"${requestId}"}`;
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The session a bearer token names (its sha256 is stored), if it has not expired. */
const readSession = `SELECT user_id FROM sessions WHERE session_token = $1 AND expires > now()`;

/** A quote, its receipt and whether the person is an active member of its workspace. */
const readQuote = `SELECT qi.id, qi.workspace_id, qi.environment_id, qi.book_id, qi.book_version_id, qi.business_id,
    qi.status, qi.source, qi.idempotency_key, qi.request_correlation_id, qi.inputs, qi.total_minor, qi.currency,
    qi.expires_at, qi.created_at, row_to_json(r) AS receipt,
    EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = qi.workspace_id AND m.user_id = $2 AND m.status = 'active') AS member
  FROM quote_intents qi LEFT JOIN quote_receipts r ON r.quote_intent_id = qi.id WHERE qi.id = $1`;

/** What explains a quote besides its creating request: its version, book, environment and events with their deliveries. */
const readTrace = `SELECT
    (SELECT json_build_object('id', v.id, 'number', v.number, 'artifactHash', v.artifact_hash) FROM book_versions v WHERE v.id = $1) AS version,
    (SELECT json_build_object('id', b.id, 'key', b.key, 'name', b.name) FROM books b WHERE b.id = $2) AS book,
    (SELECT kind FROM environments WHERE id = $3) AS environment,
    (SELECT coalesce(json_agg(json_build_object('id', ev.id, 'type', ev.type, 'createdAt', ev.created_at,
        'deliveries', (SELECT coalesce(json_agg(json_build_object('id', d.id, 'endpointUrl', w.url, 'status', d.status,
            'attemptCount', d.attempt_count, 'nextAttemptAt', d.next_attempt_at, 'createdAt', d.created_at) ORDER BY d.created_at), '[]')
          FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = ev.id)) ORDER BY ev.seq), '[]')
      FROM outbox_events ev WHERE ev.subject_id = $4) AS events`;

/**
 * The quote's creating request, within its workspace's retention: planned for its values (not
 * named), as a read of the day-partitioned log must be (a generic plan locks every partition).
 */
const readRequest = `SELECT json_build_object('requestId', r.request_id, 'method', r.method, 'path', r.path, 'status', r.status, 'principal', r.principal,
    'apiKeyId', r.api_key_id, 'latencyMs', r.latency_ms, 'createdAt', r.created_at) AS request
  FROM request_logs r, workspaces w
  WHERE w.id = $4 AND r.request_id = $1 AND r.created_at >= $2::timestamptz AND r.created_at < $3::timestamptz
    AND r.created_at >= now() - make_interval(days => coalesce(w.request_log_retention_days, 90)) LIMIT 1`;

/** The workspaces where the person a session token names holds `logs:read`, and since when each shows its log. */
const readableWorkspaces = `SELECT m.workspace_id, now() - make_interval(days => coalesce(w.request_log_retention_days, 90)) AS since
  FROM sessions s JOIN workspace_members m ON m.user_id = s.user_id JOIN workspaces w ON w.id = m.workspace_id
  WHERE s.session_token = $1 AND s.expires > now() AND m.status = 'active' AND 'logs:read' = ANY (m.permissions)`;

/**
 * The newest page (20, and one to tell whether more follow) of one workspace's request log, from
 * the instant it shows: each row with its key's name, member's email, environment and quote.
 * One workspace a statement, planned for its values each time: given as an array, or as a value
 * of a cached plan, the planner expected a few rows and sorted the whole day's (170–199 ms of
 * PostgreSQL a request) instead of reading the index in order.
 */
const searchRequestLogs = `SELECT r.request_id AS "requestId", r.method, r.path, r.status, r.error_code AS "errorCode", r.principal, r.caller, r.portal,
    r.api_key_id AS "apiKeyId", k.name AS "apiKeyName", r.user_id AS "userId", u.email AS "memberEmail", r.workspace_id AS "workspaceId",
    r.project_id AS "projectId", r.environment_id AS "environmentId", e.kind AS environment, r.business_id AS "businessId",
    r.latency_ms AS "latencyMs", r.test_fault AS "testFault", r.created_at AS "createdAt", r.id, q.id AS "quoteIntentId"
  FROM (SELECT * FROM request_logs WHERE workspace_id = $1 AND created_at >= $2 AND created_at < now() + interval '1 hour'
      ORDER BY created_at DESC, id DESC LIMIT 21) r
    LEFT JOIN api_keys k ON k.id = r.api_key_id LEFT JOIN users u ON u.id = r.user_id LEFT JOIN environments e ON e.id = r.environment_id
    LEFT JOIN LATERAL (SELECT id FROM quote_intents WHERE request_correlation_id = r.request_id LIMIT 1) q ON true
  ORDER BY r.created_at DESC, r.id DESC`;

type Answer = { status: number; body: string };
const notFound: Answer = { status: 404, body: '{"error":{"code":"not_found"}}' };

/** The digest of a bearer token, as sessions are stored by; null without one. */
function bearerDigest(authorization: string | undefined): string | null {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : null;
  return token ? createHash('sha256').update(token).digest('hex') : null;
}

async function sessionUser(authorization: string | undefined): Promise<string | null> {
  const digest = bearerDigest(authorization);
  if (!digest) return null;
  const { rows } = await pool.query({ name: 'read_session', text: readSession, values: [digest] });
  return rows[0]?.user_id ?? null;
}

async function trace(id: string, authorization: string | undefined): Promise<Answer> {
  const userId = await sessionUser(authorization);
  if (!userId) return { status: 401, body: '{"error":{"code":"unauthorized"}}' };
  const { rows } = await pool.query({ name: 'read_quote', text: readQuote, values: [id, userId] });
  const quote = rows[0];
  if (!quote?.member) return notFound;
  const [parts, request] = await Promise.all([
    pool.query({ name: 'read_trace', text: readTrace, values: [quote.book_version_id, quote.book_id, quote.environment_id, quote.id] }),
    // A minute either side of the quote, as values: constants the planner prunes the day partitions by.
    pool.query({ text: readRequest, values: [quote.request_correlation_id, new Date(quote.created_at.getTime() - 60_000), new Date(quote.created_at.getTime() + 60_000), quote.workspace_id] }),
  ]);
  const { member: _, ...shown } = quote;
  return { status: 200, body: JSON.stringify({ data: { ...shown, ...parts.rows[0], request: request.rows[0]?.request ?? null } }) };
}

async function requestLogs(authorization: string | undefined): Promise<Answer> {
  const digest = bearerDigest(authorization);
  if (!digest) return { status: 401, body: '{"error":{"code":"unauthorized"}}' };
  const readable = await pool.query<{ workspace_id: string; since: Date }>({ name: 'readable_workspaces', text: readableWorkspaces, values: [digest] });
  if (readable.rows.length === 0) return { status: 403, body: '{"error":{"code":"forbidden"}}' };
  // Each workspace's newest rows at once, merged newest first (ties by id, as the log's order).
  const pages = await Promise.all(readable.rows.map((w) => pool.query({ text: searchRequestLogs, values: [w.workspace_id, w.since] })));
  const rows = pages
    .flatMap((page) => page.rows)
    .sort((a, b) => b.createdAt - a.createdAt || Number(BigInt(b.id) - BigInt(a.id)))
    .map(({ id: _, ...row }) => row);
  const page = rows.slice(0, 20);
  const last = page.at(-1);
  return { status: 200, body: JSON.stringify({ data: { logs: page, nextCursor: rows.length > 20 && last ? `${last.createdAt.toISOString()}|${last.requestId}` : null } }) };
}

function answer(res: http.ServerResponse, reply: Promise<Answer>): void {
  reply.then(
    ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
    (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/status') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (req.method === 'GET' && req.url?.startsWith('/trace/')) return answer(res, trace(req.url.slice('/trace/'.length), req.headers.authorization));
  if (req.method === 'GET' && req.url === '/request-logs') return answer(res, requestLogs(req.headers.authorization));
  if (req.method !== 'POST' || req.url !== '/quote') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    createQuote(Buffer.concat(chunks).toString('utf8')).then(
      (json) => res.writeHead(201, { 'content-type': 'application/json' }).end(json),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
});

server.keepAliveTimeout = 65_000;
// PORT=0 (the bench's way): a port the system picks, so that nothing else can hold it; the
// first line on stdout says which.
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`reference server on ${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
