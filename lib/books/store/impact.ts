import type { DbOrTx } from '../../db/client';
import { sqlBatches, sqlRows } from '../../db/sql';
import { Statement, type StatementBuilder } from '../../db/statement';
import type { DistinctRequest } from '../impact-tally';

/** The quotes an impact run re-prices: a book's, in one environment and window, of one offering or all. */
export type ImpactWindow = { bookId: string; environmentId: string; from: Date; to: Date; offeringId: string | null };

type WindowBindings = { window: ImpactWindow };

function windowFilter(sql: StatementBuilder<WindowBindings>): string {
  const window = (field: keyof ImpactWindow, type: Parameters<typeof sql.param>[2]) => sql.param('window', field, type);
  return `book_id = ${window('bookId', 'uuid')} AND environment_id = ${window('environmentId', 'uuid')}
  AND created_at >= ${window('from', 'timestamptz')} AND created_at < ${window('to', 'timestamptz')}
  AND (${window('offeringId', 'text')} IS NULL OR inputs->>'offeringId' = ${window('offeringId', 'text')})`;
}

const COUNT_WINDOW = new Statement<WindowBindings>((sql) => `SELECT count(*)::int AS total FROM quote_intents WHERE ${windowFilter(sql)}`);

// Answers compare as jsonb, so that the order of a request's keys does not make it distinct.
const DISTINCT_REQUESTS = new Statement<WindowBindings>(
  (sql) => `SELECT inputs::jsonb AS inputs, book_version_id::text AS "baselineVersionId",
    count(*)::int AS quotes, (array_agg(id ORDER BY created_at DESC, id DESC))[1]::text AS "latestIntentId"
  FROM quote_intents WHERE ${windowFilter(sql)}
  GROUP BY inputs::jsonb, book_version_id
  ORDER BY "latestIntentId"`,
);

/** How many quotes the window holds. */
export async function countWindowQuotes(db: DbOrTx, window: ImpactWindow): Promise<number> {
  const [{ total }] = await sqlRows<{ total: number }>(db, COUNT_WINDOW.text, COUNT_WINDOW.values({ window }));
  return total;
}

/** The window's distinct requests (answers and the version that priced them), a batch at a time. */
export async function readDistinctRequests(
  db: DbOrTx,
  window: ImpactWindow,
  batchSize: number,
  onBatch: (rows: DistinctRequest[]) => Promise<void>,
): Promise<void> {
  await sqlBatches<DistinctRequest>(db, DISTINCT_REQUESTS.text, DISTINCT_REQUESTS.values({ window }), batchSize, onBatch);
}
