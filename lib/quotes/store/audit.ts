import type { DbOrTx } from '../../db/client';
import { sqlBatches, sqlRows } from '../../db/sql';
import { Statement, type StatementBuilder } from '../../db/statement';
import { type QuoteReceiptRow, quoteReceipts } from './rows';

// The quotes' store (lib/quotes/store.ts): auditing receipts.

export type AuditFilter = { since: Date | null; businessId: string | null };
/** A receipt with what recomputing it needs: its intent's stored inputs. */
export type AuditRow = QuoteReceiptRow & { inputs: unknown };

const AUDIT_WHERE = (sql: StatementBuilder<{ filter: AuditFilter }>) =>
  `WHERE (${sql.param('filter', 'since', 'timestamptz')} IS NULL OR r.created_at >= ${sql.param('filter', 'since', 'timestamptz')})
     AND (${sql.param('filter', 'businessId', 'uuid')} IS NULL OR qi.business_id = ${sql.param('filter', 'businessId', 'uuid')})`;
const COUNT_AUDITED = new Statement<{ filter: AuditFilter }>(
  (sql) => `SELECT count(*)::int AS count FROM quote_receipts r JOIN quote_intents qi ON qi.id = r.quote_intent_id ${AUDIT_WHERE(sql)}`,
);
const READ_AUDITED = new Statement<{ filter: AuditFilter }>(
  (sql) => `SELECT ${quoteReceipts.selectList('r')}, qi.inputs FROM quote_receipts r JOIN quote_intents qi ON qi.id = r.quote_intent_id ${AUDIT_WHERE(sql)}`,
);

export async function countReceipts(db: DbOrTx, filter: AuditFilter): Promise<number> {
  const [row] = await sqlRows<{ count: number }>(db, COUNT_AUDITED.text, COUNT_AUDITED.values({ filter }));
  return row.count;
}

/** Every receipt the filter selects, with its inputs, in batches (a server-side cursor, no order). */
export async function readReceiptsInBatches(db: DbOrTx, filter: AuditFilter, batchSize: number, onBatch: (rows: AuditRow[]) => Promise<void> | void) {
  await sqlBatches<AuditRow>(db, READ_AUDITED.text, READ_AUDITED.values({ filter }), batchSize, onBatch);
}
