import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { FUNNEL_QUOTE_COLUMNS, QUOTE_FUNNEL_MARK } from '../quotes/store';

/**
 * The funnel's store: it reads; it never writes. Quotes, outcomes, priced totals and unanswered
 * questions come from the daily rollups the `roll-up-quotes` minute job keeps
 * (lib/quotes/store/funnel-rollup.ts) plus the quotes made since their mark (a few minutes of
 * them), so the cost depends on the weeks, not the traffic. Acceptances, wins and commitments are
 * read from their own rows: a lead's status changes after the fact (no mark could count it once),
 * and they are a person's decisions, a few per hundred quotes, found by index
 * (business and time; project, environment, state and time).
 *
 * Parameters (but for commitments): $1 business, $2 environment, $3 the first day (a Monday, UTC), $4 the
 * offering or null for all.
 */

const WEEK = (day: string) => `to_char(date_trunc('week', (${day})::timestamp), 'YYYY-MM-DD')`;

// The rollup's rows and the quotes made since its mark, each as (day, offering, …).
const sinceMark = (columns: string) => `SELECT ${columns} FROM (
      SELECT ${FUNNEL_QUOTE_COLUMNS}
        FROM mark, quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
       WHERE qi.business_id = $1::uuid AND qi.environment_id = $2::uuid AND qi.created_at >= greatest(mark.through, $3::timestamptz)) q
     WHERE ($4::text IS NULL OR q.offering_id = $4::text)`;
const MARK = `mark AS (SELECT through FROM rollup_marks WHERE name = '${QUOTE_FUNNEL_MARK}')`;
const OF_BUSINESS = `business_id = $1::uuid AND environment_id = $2::uuid AND day >= ($3::timestamptz AT TIME ZONE 'UTC')::date AND ($4::text IS NULL OR offering_id = $4::text)`;

const OUTCOMES_SQL = `WITH ${MARK}, daily AS (
    SELECT day, outcome, quotes FROM quote_funnel_daily WHERE ${OF_BUSINESS}
    UNION ALL ${sinceMark('q.day, q.outcome, 1')}
  )
  SELECT ${WEEK('day')} AS week, sum(quotes)::int AS quotes,
    COALESCE(sum(quotes) FILTER (WHERE outcome = 'succeeded'), 0)::int AS priced,
    COALESCE(sum(quotes) FILTER (WHERE outcome = 'requires_input'), 0)::int AS "requiresInput"
  FROM daily GROUP BY 1`;

/** Quotes, priced and needing answers, per ISO week (its Monday); weeks without quotes left out. */
export async function countFunnelOutcomes(db: DbOrTx, where: FunnelWhere) {
  return sqlRows<{ week: string; quotes: number; priced: number; requiresInput: number }>(db, OUTCOMES_SQL, params(where));
}

const PRICES_SQL = `WITH ${MARK}, daily AS (
    SELECT day, currency, total_minor, quotes FROM quote_prices_daily WHERE ${OF_BUSINESS}
    UNION ALL ${sinceMark('q.day, q.currency, q.total_minor, 1')} AND q.outcome = 'succeeded' AND q.currency IS NOT NULL AND q.total_minor IS NOT NULL
  )
  SELECT ${WEEK('day')} AS week, currency, total_minor::float8 AS "totalMinor", sum(quotes)::int AS quotes FROM daily GROUP BY 1, 2, 3`;

/** Priced quotes per ISO week, currency and exact total (one row per distinct price). */
export async function readFunnelPrices(db: DbOrTx, where: FunnelWhere) {
  return sqlRows<{ week: string; currency: string; totalMinor: number; quotes: number }>(db, PRICES_SQL, params(where));
}

// The five inputs most often missing, each with the latest version (by its number) that asked it
// and the factor's label there.
const UNANSWERED_SQL = `WITH ${MARK}, daily AS (
    SELECT book_version_id, input, quotes FROM quote_missing_inputs_daily WHERE ${OF_BUSINESS}
    UNION ALL SELECT x.book_version_id, m.input, 1 FROM (${sinceMark('q.book_version_id, q.missing_inputs')} AND q.outcome = 'requires_input') x,
      unnest(x.missing_inputs) AS m(input)
  ), top AS (
    SELECT d.input, sum(d.quotes)::int AS quotes,
      (array_agg(bv.id ORDER BY bv.number DESC NULLS LAST) FILTER (WHERE bv.id IS NOT NULL))[1] AS version_id
      FROM daily d LEFT JOIN book_versions bv ON bv.id = d.book_version_id
     GROUP BY d.input ORDER BY 2 DESC, 1 LIMIT 5
  )
  SELECT top.input, top.quotes,
    CASE WHEN top.input LIKE 'factors.%' THEN substr(top.input, 9) END AS "factorId",
    (SELECT f->>'label' FROM book_versions bv, json_array_elements(CASE WHEN json_typeof(bv.artifact->'factors') = 'array' THEN bv.artifact->'factors' ELSE '[]'::json END) f
      WHERE bv.id = top.version_id AND f->>'id' = substr(top.input, 9) LIMIT 1) AS label
  FROM top ORDER BY top.quotes DESC, top.input`;

/** The questions most often left unanswered (five at most), with the factor's label where known. */
export async function readTopUnanswered(db: DbOrTx, where: FunnelWhere) {
  return sqlRows<{ input: string; quotes: number; factorId: string | null; label: string | null }>(db, UNANSWERED_SQL, params(where));
}

// By the week of the quote the customer accepted, not of the acceptance: a cohort.
const ACCEPTED_SQL = `SELECT ${WEEK(`qi.created_at AT TIME ZONE 'UTC'`)} AS week, count(*)::int AS accepted,
    count(*) FILTER (WHERE qa.status = 'won')::int AS won
  FROM quote_acceptances qa JOIN quote_intents qi ON qi.id = qa.quote_intent_id
  WHERE qa.business_id = $1::uuid AND qa.environment_id = $2::uuid AND qa.created_at >= $3::timestamptz AND qi.created_at >= $3::timestamptz
    AND ($4::text IS NULL OR coalesce(qi.inputs->>'offeringId', '') = $4::text)
  GROUP BY 1`;

/** Accepted quotes (leads) and those now won, per ISO week of the quote. */
export async function countAcceptedAndWon(db: DbOrTx, where: FunnelWhere) {
  return sqlRows<{ week: string; accepted: number; won: number }>(db, ACCEPTED_SQL, params(where));
}

// A committed quote stays `quoted` (the commitment is its own row); an offering filter matches a
// quote that priced that service among others.
const COMMITTED_SQL = `SELECT ${WEEK(`aq.created_at AT TIME ZONE 'UTC'`)} AS week, count(*)::int AS committed
  FROM account_quotes aq JOIN commitments c ON c.account_quote_id = aq.id
  WHERE aq.project_id = $1::uuid AND aq.environment_id = $2::uuid AND aq.state = 'quoted' AND aq.created_at >= $3::timestamptz
    AND ($4::text IS NULL OR aq.request->'services' @> jsonb_build_array(jsonb_build_object('service', $4::text)))
  GROUP BY 1`;

/** Commitments confirmed on the project's account quotes, per ISO week of the quote ($1 is the project here). */
export async function countCommitted(db: DbOrTx, where: Omit<FunnelWhere, 'businessId'> & { projectId: string }) {
  return sqlRows<{ week: string; committed: number }>(db, COMMITTED_SQL, [where.projectId, where.environmentId, where.since, where.offeringId]);
}

const OFFERINGS_SQL = `SELECT o->>'id' AS id, coalesce(o->>'label', o->>'id') AS label
  FROM projects pr JOIN publications p ON p.book_id = pr.primary_book_id AND p.environment_id = $2::uuid
  JOIN book_versions bv ON bv.id = p.book_version_id,
  json_array_elements(CASE WHEN json_typeof(bv.artifact->'offerings') = 'array' THEN bv.artifact->'offerings' ELSE '[]'::json END) o
  WHERE pr.id = $1::uuid`;

/** The offerings of the version published in the environment for the project's primary book. */
export async function readPublishedOfferings(db: DbOrTx, projectId: string, environmentId: string) {
  return sqlRows<{ id: string; label: string }>(db, OFFERINGS_SQL, [projectId, environmentId]);
}

export type FunnelWhere = { businessId: string; environmentId: string; since: Date; offeringId: string | null };

function params(where: FunnelWhere): unknown[] {
  return [where.businessId, where.environmentId, where.since, where.offeringId];
}
