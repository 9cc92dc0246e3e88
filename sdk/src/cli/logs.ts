import { QuotePricingError, type QuotePricingClient } from '../index.js';
import { explain } from './explain.js';
import { sleep } from './forward.js';
import { clock } from './words.js';

const POLL_MS = 2000;

/** Request ids remembered, at most `limit` (the oldest forgotten first). */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly limit = 5000) {}
  add(id: string | null | undefined): void {
    if (!id) return;
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
}

type Row = { request_id: string; created: string; status: number; method: string; path: string; latency_ms: number; error_code: string | null };

/** One printed line of the request log. */
export function logLine(row: Row): string {
  return `${row.created.slice(11, 19)}  ${row.status}  ${row.method} ${row.path}  ${row.latency_ms} ms${row.error_code ? `  ${row.error_code}` : ''}  ${row.request_id}`;
}

/**
 * Prints the requests of the key's environment as they are made (the account surface's request
 * log, every 2 s). Its own requests are left out by their request ids (`x-request-id`), which it
 * remembers for every call it makes, answered or refused.
 */
export async function tailLogs(client: QuotePricingClient, context: { baseUrl: string; apiKey: string }): Promise<number> {
  const own = new RecentIds();
  const call = async <T>(make: () => Promise<{ data: T; requestId: string | null }>): Promise<T> => {
    try {
      const result = await make();
      own.add(result.requestId);
      return result.data;
    } catch (error) {
      if (error instanceof QuotePricingError) own.add(error.requestId);
      throw error;
    }
  };
  const account = await call(() => client.request('getCurrentAccount'));
  const seen = new RecentIds();
  const page = () => call(() => client.request('listAccountRequestLogs', { path: { id: account.id }, query: { limit: 50 } }));
  // What was logged before: only what comes after it is shown (said once it is known).
  for (const row of (await page()).data) seen.add(row.request_id);
  console.log(`Following the requests of ${account.name} (${account.environment}); Ctrl-C to stop.`);
  process.once('SIGINT', () => process.exit(0));
  process.once('SIGTERM', () => process.exit(0));
  for (let failing = false; ; ) {
    await sleep(POLL_MS);
    let rows: Row[];
    try {
      rows = (await page()).data;
    } catch (error) {
      // A poll that failed is said once, and the tail goes on; the next answer says it is back.
      if (!failing) console.error(`${clock()}  ${explain(error, context)}`);
      failing = true;
      continue;
    }
    if (failing) console.error(`${clock()}  The service answers again.`);
    failing = false;
    for (const row of rows.filter((candidate) => !seen.has(candidate.request_id)).reverse()) {
      seen.add(row.request_id);
      if (!own.has(row.request_id)) console.log(logLine(row));
    }
  }
}
