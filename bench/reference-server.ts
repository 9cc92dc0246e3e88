// The bare minimum a quote creation can do, for side-by-side figures: node:http + pg, no
// framework, no ORM. POST /quote reads the JSON body, then one transaction inserts an intent
// and its receipt (a price computed once at start) into the real tables, with the request's
// idempotency key. Run as its own process by bench/run.ts:
// `REFERENCE_CONFIG=<json> DATABASE_URL=… PORT=… node --import tsx bench/reference-server.ts`
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
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

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/status') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
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
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`reference server on ${process.env.PORT}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
