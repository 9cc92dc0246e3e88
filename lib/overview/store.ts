import type { DbOrTx } from '../db/client';
import { cappedCountSql, sqlRows } from '../db/sql';
import { QUOTE_ROLLUP_MARK } from '../quotes/store/rollup';

/**
 * What waits for a business and a person, counted across domains (quotes, account quotes,
 * leads, request logs, webhooks): the overview's and the inbox's store. It reads; it never writes.
 */

// ---------------------------------------------------------------------------------------------
// The overview's counts

// A quote's outcome without its receipt: an intent is written with its receipt's outcome as its
// status, and the only later change is to `expired` (lib/quotes/store/reads.ts), whose receipt
// then says. The quotes past the mark are read from their intents alone: joined to every receipt,
// the bench's 2,000 of them cost the overview 14 ms (docs/performance.md).
const OUTCOME_OF_INTENT = `CASE WHEN qi.status = 'expired' THEN (SELECT r.outcome::text FROM quote_receipts r WHERE r.quote_intent_id = qi.id)
  ELSE qi.status::text END`;

// From the hourly rollup the minute job keeps (lib/quotes/store/rollup.ts), which holds the quotes
// made before its mark, and the quotes made since the mark (a minute or two of them) counted from
// the quotes themselves: the cost depends on the days, not on the traffic. The statement reads the
// mark in its own snapshot (what makes the two parts add up exactly); the mark read just before it
// is given too, as a bound the planner can see: it only moves forward, so it is at most the one
// the statement reads. Without it the planner planned for every quote of the days asked (258–359
// ms for 300,000 quotes in the bench).
const QUOTES_PER_DAY_SQL = `WITH mark AS (SELECT through FROM rollup_marks WHERE name = '${QUOTE_ROLLUP_MARK}'),
  hourly AS (
    SELECT h.hour, h.outcome::text AS outcome, h.quotes FROM quote_outcomes_hourly h
     WHERE h.business_id = $1::uuid AND h.environment_id = $3::uuid AND h.hour >= date_trunc('hour', $2::timestamptz, 'UTC')
    UNION ALL
    SELECT qi.created_at, ${OUTCOME_OF_INTENT}, 1 FROM mark, quote_intents qi
     WHERE qi.business_id = $1::uuid AND qi.environment_id = $3::uuid AND qi.created_at >= greatest(mark.through, $2::timestamptz)
       AND qi.created_at >= $4::timestamptz
  )
  SELECT to_char(date_trunc('day', hour AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
     COALESCE(sum(quotes) FILTER (WHERE outcome = 'succeeded'), 0)::int AS succeeded,
     COALESCE(sum(quotes) FILTER (WHERE outcome = 'requires_input'), 0)::int AS "requiresInput",
     COALESCE(sum(quotes) FILTER (WHERE outcome = 'failed'), 0)::int AS failed
  FROM hourly GROUP BY 1`;

/** The business's quotes in the environment since the UTC day `since` starts, per UTC day (days without any left out). */
export async function countQuotesPerDay(db: DbOrTx, businessId: string, environmentId: string | null, since: Date) {
  const [mark] = await sqlRows<{ through: Date }>(db, `SELECT through FROM rollup_marks WHERE name = '${QUOTE_ROLLUP_MARK}'`, []);
  const rolledUpAtLeastTo = mark && mark.through > since ? mark.through : since;
  return sqlRows<{ day: string; succeeded: number; requiresInput: number; failed: number }>(db, QUOTES_PER_DAY_SQL, [businessId, since, environmentId, rolledUpAtLeastTo]);
}

// From the hourly rollup (lib/requestlog/store.ts): its cost depends on the hours, not the traffic.
const API_CALLS_SQL = `SELECT COALESCE(sum(requests), 0)::int AS total, COALESCE(sum(requests) FILTER (WHERE status_class >= 4), 0)::int AS failed
  FROM request_log_hourly
  WHERE workspace_id = $1::uuid AND business_id = $2::uuid AND hour >= date_trunc('hour', $3::timestamptz, 'UTC') AND NOT portal`;

/** API calls filed under the business since the hour `since` falls in, the portal's own left out. */
export async function countApiCalls(db: DbOrTx, business: { id: string; workspaceId: string }, since: Date) {
  const [row] = await sqlRows<{ total: number; failed: number }>(db, API_CALLS_SQL, [business.workspaceId, business.id, since]);
  return row;
}

// From the hourly rollup kept with the attempts (lib/webhooks/store/sending.ts).
const WEBHOOK_ATTEMPTS_SQL = `SELECT COALESCE(sum(attempts), 0)::int AS attempts, COALESCE(sum(attempts) FILTER (WHERE succeeded), 0)::int AS succeeded
  FROM webhook_attempts_hourly WHERE environment_id = $1::uuid AND hour >= date_trunc('hour', $2::timestamptz, 'UTC')`;

/** Webhook attempts to the environment's endpoints since the hour `since` falls in. */
export async function countWebhookAttempts(db: DbOrTx, environmentId: string | null, since: Date) {
  const [row] = await sqlRows<{ attempts: number; succeeded: number }>(db, WEBHOOK_ATTEMPTS_SQL, [environmentId, since]);
  return row;
}

// A quote made: the business's newest, by its index. An EXISTS may be planned as a scan of the
// table from its start, which reads most of it for a business whose quotes are all recent.
const SETUP_SQL = `SELECT EXISTS (SELECT 1 FROM publications p JOIN projects pr ON pr.primary_book_id = p.book_id
                    WHERE pr.id = $2::uuid AND p.environment_id = $3::uuid) AS "bookPublished",
     EXISTS (SELECT 1 FROM api_keys k WHERE k.project_id = $2::uuid AND k.status <> 'revoked') AS "apiKeyCreated",
     (SELECT 1 FROM quote_intents qi WHERE qi.business_id = $1::uuid ORDER BY qi.created_at DESC LIMIT 1) IS NOT NULL AS "quoteMade",
     EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.project_id = $2::uuid AND e.deleted_at IS NULL) AS "endpointAdded"`;

/** How far the business has come in setting up: a published primary book, a key, a quote, an endpoint. */
export async function readSetupChecklist(db: DbOrTx, businessId: string, projectId: string | null, environmentId: string | null) {
  const [row] = await sqlRows<{ bookPublished: boolean; apiKeyCreated: boolean; quoteMade: boolean; endpointAdded: boolean }>(db, SETUP_SQL, [
    businessId,
    projectId,
    environmentId,
  ]);
  return row;
}

// ---------------------------------------------------------------------------------------------
// What waits for a person (GET /v1/me/inbox)

// Businesses the person can read (a member, or `businesses:manage`), with their Live quotes
// awaiting review where the person may review them (owner, or `businesses:manage`), and new leads.
const INBOX_SQL = `WITH readable AS (
    SELECT b.id, (m.role = 'owner' OR coalesce('businesses:manage' = ANY(w.permissions), false)) AS may_review
      FROM businesses b
      LEFT JOIN business_members m ON m.business_id = b.id AND m.user_id = $1::uuid AND m.status = 'active'
      LEFT JOIN workspace_members w ON w.workspace_id = b.workspace_id AND w.user_id = $1::uuid AND w.status = 'active'
     WHERE m.id IS NOT NULL OR 'businesses:manage' = ANY(w.permissions))
  SELECT r.id::text AS "businessId",
    CASE WHEN r.may_review THEN (
      SELECT count(*) FROM connections c
        JOIN environments e ON e.project_id = c.project_id AND e.kind = 'live'
        JOIN account_quotes aq ON aq.project_id = c.project_id AND aq.environment_id = e.id
       WHERE c.business_id = r.id AND c.status = 'active' AND aq.state = 'awaiting_approval' AND aq.review_decision IS NULL)
    ELSE 0 END::int AS "heldQuotes",
    ${cappedCountSql(`SELECT 1 FROM quote_acceptances qa WHERE qa.business_id = r.id AND qa.status = 'new'`, '$2::int')}::int AS "newLeads"
  FROM readable r`;

/** Each readable business's held quotes and new leads (the leads counted up to `cap`). */
export async function countInboxOf(db: DbOrTx, userId: string, cap: number) {
  return sqlRows<{ businessId: string; heldQuotes: number; newLeads: number }>(db, INBOX_SQL, [userId, cap]);
}

// Live hosted-page and member quotes whose price runs out soon and that nobody accepted yet. Read
// in the order of when they run out, as their indexes hold them: for a business with most of the
// quotes the planner otherwise scans the table from its start until it has its 1,000, and the
// quotes of the window are a month old, in the middle of it (3.5 s at 10M quotes against 3.5 ms,
// docs/performance.md).
const EXPIRING_INTENTS_SQL = `SELECT ${cappedCountSql(
  `SELECT 1 FROM quote_intents qi
  WHERE qi.business_id = $1::uuid AND qi.environment_id = $2::uuid AND qi.status = 'succeeded'
    AND qi.expires_at > $3::timestamptz AND qi.expires_at <= $4::timestamptz
    AND NOT EXISTS (SELECT 1 FROM quote_acceptances qa WHERE qa.quote_intent_id = qi.id)
  ORDER BY qi.expires_at`,
  '$5::int',
)}::int AS count`;

/** Up to `cap` of them. */
export async function countExpiringIntents(
  db: DbOrTx,
  where: { businessId: string; environmentId: string; now: Date; until: Date },
  cap: number,
): Promise<number> {
  const [row] = await sqlRows<{ count: number }>(db, EXPIRING_INTENTS_SQL, [where.businessId, where.environmentId, where.now, where.until, cap]);
  return row.count;
}
