import type { DbOrTx } from '../db/client';
import { afterTimeIdCursor } from '../db/cursors';
import type { Prisma } from '../db/generated/client';
import { cappedCountSql, sqlRows } from '../db/sql';
import type { LeadStatus } from './statuses';

/**
 * The leads' store: the only place with SQL for quote acceptances (`quote_acceptances`), and for
 * erasing a lead's personal data from the event that carried it.
 */

const leadSelect = {
  id: true,
  quoteIntentId: true,
  receiptId: true,
  receiptSignature: true,
  workspaceId: true,
  environmentId: true,
  businessId: true,
  totalMinor: true,
  currency: true,
  contactName: true,
  contactEmail: true,
  contactPhone: true,
  note: true,
  preferredDate: true,
  consentText: true,
  status: true,
  statusChangedAt: true,
  erasedAt: true,
  createdAt: true,
} satisfies Prisma.QuoteAcceptanceSelect;

export type LeadRow = Prisma.QuoteAcceptanceGetPayload<{ select: typeof leadSelect }>;

export type NewAcceptance = Omit<Prisma.QuoteAcceptanceUncheckedCreateInput, 'status' | 'statusChangedAt' | 'statusChangedBy' | 'erasedAt' | 'erasedBy'> & {
  id: string;
  createdAt: Date;
};

/** Writes the acceptance unless the quote has one already (a concurrent one won): true when written. */
export async function insertAcceptance(db: DbOrTx, acceptance: NewAcceptance): Promise<boolean> {
  const { count } = await db.quoteAcceptance.createMany({ data: [acceptance], skipDuplicates: true });
  return count === 1;
}

export async function findAcceptanceOfQuote(db: DbOrTx, quoteIntentId: string): Promise<LeadRow | null> {
  return db.quoteAcceptance.findUnique({ where: { quoteIntentId }, select: leadSelect });
}

export type LeadsQuery = { businessId: string; status?: LeadStatus; limit: number; cursor?: string };

/** A business's leads, newest first, keyset-paginated by (created_at, id), each with the offering asked for. */
export async function listLeadsOfBusiness(db: DbOrTx, query: LeadsQuery) {
  const rows = await db.quoteAcceptance.findMany({
    where: { businessId: query.businessId, ...(query.status ? { status: query.status } : {}), ...afterTimeIdCursor(query.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: leadSelect,
  });
  return rows;
}

export async function findLead(db: DbOrTx, key: { id: string; businessId: string }): Promise<LeadRow | null> {
  return db.quoteAcceptance.findFirst({ where: key, select: leadSelect });
}

// What each quote asked for: its offering and the version that priced it (offeringLabels names
// it), from the intent alone.
const QUOTE_OFFERINGS_SQL = `SELECT qi.id::text AS id, qi.inputs->>'offeringId' AS "offeringId", qi.book_version_id::text AS "bookVersionId"
  FROM quote_intents qi WHERE qi.id = ANY($1::uuid[])`;

/** What each quote asked for, by intent id: the offering and the version that priced it. */
export async function findQuoteOfferings(db: DbOrTx, quoteIntentIds: string[]) {
  const rows = await sqlRows<{ id: string; offeringId: string; bookVersionId: string | null }>(db, QUOTE_OFFERINGS_SQL, [quoteIntentIds]);
  return new Map(rows.map(({ id, ...offering }) => [id, offering]));
}

export async function updateLeadStatus(db: DbOrTx, change: { id: string; status: LeadStatus; changedBy: string; changedAt: Date }): Promise<LeadRow> {
  return db.quoteAcceptance.update({
    where: { id: change.id },
    data: { status: change.status, statusChangedBy: change.changedBy, statusChangedAt: change.changedAt },
    select: leadSelect,
  });
}

/**
 * Removes a lead's personal data wherever it is stored (docs/quote-lifecycle.md, "erased"):
 * - the acceptance's contact details and note (the lead leaves the pipeline: status `erased`);
 * - the same in the `quote_intent.accepted` event, so deliveries still to be sent carry the
 *   erased payload, and what receivers answered to it (`webhook_attempts.response_excerpt`, where
 *   an echoing receiver would have put it back);
 * - in the request log (forgetCustomerRequests, run first, in statements of its own), the
 *   customer's requests (their quote and acceptance, every request about that quote, and their
 *   other anonymous requests to the business from the same address and browser since the day
 *   before the quote) lose their address, browser and bodies, as does any anonymous request whose
 *   body holds their email, phone or name (typed into another field).
 * The quote, its signed receipt and the acceptance's binding to them stay.
 */
export async function erasePersonalData(db: DbOrTx, erasure: { id: string; quoteIntentId: string; erasedBy: string; erasedAt: Date }): Promise<LeadRow> {
  const lead = await db.quoteAcceptance.update({
    where: { id: erasure.id },
    data: {
      contactName: null,
      contactEmail: null,
      contactPhone: null,
      note: null,
      status: 'erased',
      statusChangedBy: erasure.erasedBy,
      statusChangedAt: erasure.erasedAt,
      erasedBy: erasure.erasedBy,
      erasedAt: erasure.erasedAt,
    },
    select: leadSelect,
  });
  const events = await db.outboxEvent.findMany({
    where: { subjectId: erasure.quoteIntentId, type: 'quote_intent.accepted' },
    select: { id: true, data: true },
  });
  for (const event of events) {
    const data = event.data as { acceptance: Record<string, unknown> };
    await db.outboxEvent.update({
      where: { id: event.id },
      data: { data: { ...data, acceptance: { ...data.acceptance, contact: null, note: null, erasedAt: erasure.erasedAt.toISOString() } } },
    });
  }
  await sqlRows(
    db,
    `UPDATE webhook_attempts a SET response_excerpt = NULL
     FROM webhook_deliveries d WHERE d.id = a.delivery_id AND d.event_id = ANY($1::uuid[]) AND a.response_excerpt IS NOT NULL`,
    [events.map((e) => e.id)],
  );
  return lead;
}

const DAY_MS = 86_400_000;
/** The days one statement of an erasure reads: a month's partitions, each locked until it ends. */
const ERASURE_WINDOW_DAYS = 31;

/**
 * The erasure's request-log part (see erasePersonalData): the customer's requests lose their
 * address, browser and bodies, from the day before the quote until now. A month of days per
 * statement, each its own transaction: PostgreSQL locks every day partition a statement reads
 * until its transaction ends, and years of days in one ran its lock table out ("out of shared
 * memory"). The newest month first: the quote's and the acceptance's requests, which say the
 * customer's address and browser, are forgotten last, so a retry after a crash still finds them.
 * Idempotent; run before the lead is marked erased, so an erased lead's requests are forgotten.
 */
export async function forgetCustomerRequests(db: DbOrTx, lead: LeadRow, now: Date): Promise<void> {
  const [quote] = await sqlRows<{ quotedAt: Date; quotedBy: string; acceptedBy: string }>(
    db,
    `SELECT qi.created_at AS "quotedAt", qi.request_correlation_id AS "quotedBy", qa.request_correlation_id AS "acceptedBy"
     FROM quote_acceptances qa JOIN quote_intents qi ON qi.id = qa.quote_intent_id WHERE qa.id = $1::uuid`,
    [lead.id],
  );
  // Names shorter than this would match words in unrelated bodies.
  const typed = [lead.contactEmail, lead.contactPhone, lead.contactName && lead.contactName.length >= 4 ? lead.contactName : null]
    .filter((v): v is string => !!v)
    .map((v) => v.toLowerCase());
  const since = quote.quotedAt.getTime() - DAY_MS;
  const requests = [quote.quotedBy, quote.acceptedBy];
  const marks = await sqlRows(db, CUSTOMER_MARKS, [requests, new Date(since), new Date(lead.createdAt.getTime() + DAY_MS)], { prepared: false });
  const path = `/v1/public_quotes/${lead.quoteIntentId}`;
  // Until tomorrow: rows the log's writer has yet to flush carry their request's start.
  for (let until = now.getTime() + DAY_MS; until > since; until -= ERASURE_WINDOW_DAYS * DAY_MS) {
    const from = Math.max(since, until - ERASURE_WINDOW_DAYS * DAY_MS);
    // Planned for its values: the window's day partitions only (docs/request-log.md).
    await sqlRows(db, FORGET_CUSTOMER_REQUESTS, [lead.workspaceId, path, typed, new Date(from), new Date(until), JSON.stringify(marks), requests], { prepared: false });
  }
}

/** The customer's address and browser: those of the quote's and the acceptance's requests ($1). */
const CUSTOMER_MARKS = `SELECT DISTINCT ip, user_agent FROM request_logs
  WHERE request_id = ANY($1::text[]) AND created_at >= $2::timestamptz AND created_at < $3::timestamptz AND ip IS NOT NULL`;

/**
 * One window [$4, $5) of the erasure's request-log part: finds the customer's rows ($7: the
 * quote's and the acceptance's requests; every request about the quote, $2; anonymous requests
 * with the customer's marks, $6; anonymous bodies holding what they typed, $3) in their workspace
 * ($1) or in none, and clears their address, browser and bodies.
 */
const FORGET_CUSTOMER_REQUESTS = `WITH marks AS (
    SELECT m.ip, m.user_agent FROM json_to_recordset($6::json) AS m(ip text, user_agent text)
  ), theirs AS (
    SELECT r.request_id, r.created_at FROM request_logs r
    WHERE r.created_at >= $4::timestamptz AND r.created_at < $5::timestamptz AND (r.workspace_id = $1::uuid OR r.workspace_id IS NULL)
      AND (r.request_id = ANY($7::text[])
        OR r.path = $2::text OR starts_with(r.path, $2::text || '/')
        OR (r.caller = 'anonymous' AND EXISTS (SELECT 1 FROM marks m WHERE m.ip = r.ip AND m.user_agent IS NOT DISTINCT FROM r.user_agent)))
    UNION
    SELECT r.request_id, r.created_at
    FROM request_log_bodies b JOIN request_logs r ON r.request_id = b.request_id AND r.created_at = b.created_at
    WHERE cardinality($3::text[]) > 0 AND b.created_at >= $4::timestamptz AND b.created_at < $5::timestamptz
      AND r.created_at >= $4::timestamptz AND r.created_at < $5::timestamptz AND r.caller = 'anonymous'
      AND (r.workspace_id = $1::uuid OR r.workspace_id IS NULL)
      AND EXISTS (SELECT 1 FROM unnest($3::text[]) v WHERE strpos(lower(coalesce(b.request_body, '') || ' ' || coalesce(b.response_body, '')), v) > 0)
  ), cleared AS (
    UPDATE request_logs r SET ip = NULL, user_agent = NULL FROM theirs t
    WHERE r.request_id = t.request_id AND r.created_at = t.created_at AND r.created_at >= $4::timestamptz AND r.created_at < $5::timestamptz
      AND (r.ip IS NOT NULL OR r.user_agent IS NOT NULL)
  )
  DELETE FROM request_log_bodies b USING theirs t
  WHERE b.request_id = t.request_id AND b.created_at = t.created_at AND b.created_at >= $4::timestamptz AND b.created_at < $5::timestamptz`;

// Each count reads at most `cap` index entries (lib/overview/pipeline-count.ts says why).
const COUNT_LEADS_SQL = `SELECT
    ${cappedCountSql(`SELECT 1 FROM quote_acceptances WHERE business_id = $1::uuid AND created_at >= $2::timestamptz`, '$3::int')}::int AS "thisWeek",
    ${cappedCountSql(`SELECT 1 FROM quote_acceptances WHERE business_id = $1::uuid AND status = 'new'`, '$3::int')}::int AS waiting`;

/** How many leads arrived since `since`, and how many are still new: each up to `cap`. */
export async function countLeads(db: DbOrTx, where: { businessId: string; since: Date }, cap: number): Promise<{ thisWeek: number; waiting: number }> {
  const [row] = await sqlRows<{ thisWeek: number; waiting: number }>(db, COUNT_LEADS_SQL, [where.businessId, where.since, cap]);
  return row;
}
