import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { logger } from '../observability/logger';

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
  createdAt: Date;
};

const FLUSH_INTERVAL_MS = 50;
const MAX_BATCH = 500;

/**
 * Writes request-log rows in batches off the request's path: one multi-row INSERT every
 * 50 ms instead of one round trip per request. A crash can lose at most that window.
 */
export class RequestLogWriter {
  private queue: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: () => DbOrTx) {}

  record(entry: RequestLogEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue.splice(0, this.queue.length);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() =>
      insertRequestLogs(this.db(), batch).catch((error: unknown) =>
        logger.error({ err: error, lost: batch.length }, 'request log write failed'),
      ),
    );
    return this.flushing;
  }
}

/** One statement for the whole batch, column arrays unnested: the same text whatever its size. */
async function insertRequestLogs(db: DbOrTx, batch: RequestLogEntry[]): Promise<void> {
  const column = <K extends keyof RequestLogEntry>(key: K) => batch.map((entry) => entry[key]);
  await sqlRows(
    db,
    `INSERT INTO request_logs (request_id, method, path, status, error_code, principal, api_key_id, user_id,
       workspace_id, project_id, environment_id, business_id, latency_ms, created_at,
       caller, portal, ip, user_agent, request_body, response_body)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::uuid[],
       $8::uuid[], $9::uuid[], $10::uuid[], $11::uuid[], $12::uuid[], $13::int[], $14::timestamptz[],
       $15::text[], $16::boolean[], $17::text[], $18::text[], $19::text[], $20::text[])
     ON CONFLICT (request_id) DO NOTHING`,
    [
      column('requestId'),
      column('method'),
      column('path'),
      column('status'),
      column('errorCode'),
      column('principal'),
      column('apiKeyId'),
      column('userId'),
      column('workspaceId'),
      column('projectId'),
      column('environmentId'),
      column('businessId'),
      column('latencyMs'),
      column('createdAt'),
      column('caller'),
      column('portal'),
      column('ip'),
      column('userAgent'),
      column('requestBody'),
      column('responseBody'),
    ],
  );
}
