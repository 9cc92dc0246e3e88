import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { timeIdPage } from '../http/cursors';
import type { BusinessQuote } from './schemas';

export type BusinessQuotesQuery = { environment?: 'test' | 'live'; status?: BusinessQuote['status']; limit: number; cursor?: string };

type Row = Omit<BusinessQuote, 'createdAt'> & { createdAt: Date };

/**
 * GET /v1/businesses/{id}/quotes: the business's quotes, newest first, keyset-paginated by
 * (created_at, id); the route has checked that the person may read the business. Reads only the
 * receipt's total and first line's label, never its whole computation.
 */
export async function listBusinessQuotes(db: DbOrTx, businessId: string, query: BusinessQuotesQuery) {
  const [cursorTime, cursorId] = query.cursor ? query.cursor.split('|') : [null, null];
  const rows = await sqlRows<Row>(
    db,
    `SELECT qi.id::text AS id, e.kind::text AS environment, qi.source::text AS source, qi.status::text AS status,
        qi.inputs->>'offeringId' AS "offeringId",
        r.computation->'lineItems'->0->>'label' AS "offeringLabel",
        (r.computation->>'totalMinor')::bigint::float8 AS "totalMinor",
        r.computation->>'currency' AS currency,
        v.number AS "bookVersionNumber", qi.created_at AS "createdAt"
       FROM quote_intents qi
       JOIN environments e ON e.id = qi.environment_id
       LEFT JOIN quote_receipts r ON r.quote_intent_id = qi.id
       LEFT JOIN book_versions v ON v.id = qi.book_version_id
      WHERE qi.business_id = $1::uuid
        AND ($2::text IS NULL OR e.kind::text = $2::text)
        AND ($3::text IS NULL OR qi.status::text = $3::text)
        AND ($4::timestamptz IS NULL OR (qi.created_at, qi.id) < ($4::timestamptz, $5::uuid))
      ORDER BY qi.created_at DESC, qi.id DESC
      LIMIT $6::int`,
    [businessId, query.environment ?? null, query.status ?? null, cursorTime, cursorId, query.limit + 1],
  );
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  return { quotes: page.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), nextCursor };
}
