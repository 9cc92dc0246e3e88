import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { PublishGuard } from '../books/impact-schemas';
import type { Branding } from './schemas';

/**
 * The businesses' store: the only place with SQL for businesses and their connections, and for
 * the counts a business's overview shows. Verbs (one per file in this folder) read as flow.
 */

// ---------------------------------------------------------------------------------------------
// Rows

/** The columns of a business's branding, as the hosted page and the business's view show it. */
const brandingColumns = {
  displayName: true,
  logoUrl: true,
  primaryColor: true,
  accentColor: true,
  nextStepLabel: true,
  nextStepUrl: true,
  acceptanceConsent: true,
} satisfies Prisma.BusinessSelect;

/** What a business's view shows (business-view.ts): its branding, safeguard and first connection. */
const businessSelect = {
  id: true,
  workspaceId: true,
  name: true,
  ...brandingColumns,
  publishGuardChangePercent: true,
  publishGuardSharePercent: true,
  createdAt: true,
  connections: {
    orderBy: [{ status: 'asc' }, { createdAt: 'asc' }],
    take: 1,
    select: { projectId: true, kind: true, status: true },
  },
} satisfies Prisma.BusinessSelect;

export type BusinessRow = Prisma.BusinessGetPayload<{ select: typeof businessSelect }>;

const brandingSelect = { name: true, ...brandingColumns } satisfies Prisma.BusinessSelect;

export type BrandingRow = Prisma.BusinessGetPayload<{ select: typeof brandingSelect }>;

// ---------------------------------------------------------------------------------------------
// Businesses and their connections

export async function insertBusiness(db: DbOrTx, business: { workspaceId: string; name: string; displayName: string }) {
  return db.business.create({ data: business, select: { id: true, workspaceId: true, name: true } });
}

export async function insertConnection(
  db: DbOrTx,
  connection: { businessId: string; projectId: string; kind: 'direct' | 'managed'; status: 'active' | 'inactive' },
): Promise<void> {
  await db.connection.create({ data: connection });
}

/** The oldest business of the workspace with this slug, if any. */
export async function findFirstBusinessOfWorkspace(db: DbOrTx, workspaceSlug: string) {
  return db.business.findFirst({
    where: { workspace: { slug: workspaceSlug } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, displayName: true },
  });
}

/** A business's branding; throws (Prisma's not-found) when there is none. */
export async function findBranding(db: DbOrTx, businessId: string): Promise<BrandingRow> {
  return db.business.findUniqueOrThrow({ where: { id: businessId }, select: brandingSelect });
}

/**
 * Businesses a person can see, oldest first: those of their workspaces and those they are a
 * member of, each with the person's active membership in it (if any).
 */
export async function listBusinessesVisibleTo(db: DbOrTx, userId: string) {
  return db.business.findMany({
    where: {
      OR: [{ workspace: { members: { some: { userId, status: 'active' } } } }, { members: { some: { userId, status: 'active' } } }],
    },
    orderBy: { createdAt: 'asc' },
    select: { ...businessSelect, members: { where: { userId, status: 'active' }, select: { id: true, role: true } } },
  });
}

/** Sets the branding; an omitted next step or consent sentence stays as it is (clients that predate them do not erase them). */
export async function updateBranding(db: DbOrTx, businessId: string, branding: Branding, now: Date): Promise<BusinessRow> {
  const { nextStep, acceptanceConsent, ...look } = branding;
  return db.business.update({
    where: { id: businessId },
    data: {
      ...look,
      ...(nextStep === undefined ? {} : { nextStepLabel: nextStep?.label ?? null, nextStepUrl: nextStep?.url ?? null }),
      ...(acceptanceConsent === undefined ? {} : { acceptanceConsent }),
      updatedAt: now,
    },
    select: businessSelect,
  });
}

export async function updatePublishGuard(db: DbOrTx, businessId: string, guard: PublishGuard, now: Date): Promise<BusinessRow> {
  return db.business.update({
    where: { id: businessId },
    data: { publishGuardChangePercent: guard.changePercent, publishGuardSharePercent: guard.sharePercent, updatedAt: now },
    select: businessSelect,
  });
}

const TENANCY_SQL = `SELECT b.workspace_id::text AS "workspaceId", c.project_id::text AS "projectId", e.id::text AS "environmentId"
  FROM businesses b
  LEFT JOIN connections c ON c.business_id = b.id AND c.status = 'active'
  LEFT JOIN environments e ON e.project_id = c.project_id AND e.kind = 'live'
  WHERE b.id = $1::uuid`;

/** The business's workspace, and its active connection's project and Live environment (if any). */
export async function findBusinessTenancy(
  db: DbOrTx,
  businessId: string,
): Promise<{ workspaceId: string; projectId: string | null; environmentId: string | null } | null> {
  const [row] = await sqlRows<{ workspaceId: string; projectId: string | null; environmentId: string | null }>(db, TENANCY_SQL, [businessId]);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// The overview's counts

const QUOTES_PER_DAY_SQL = `SELECT to_char(date_trunc('day', qi.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
     count(*) FILTER (WHERE r.outcome = 'succeeded')::int AS succeeded,
     count(*) FILTER (WHERE r.outcome = 'requires_input')::int AS "requiresInput",
     count(*) FILTER (WHERE r.outcome = 'failed')::int AS failed
  FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
  WHERE qi.business_id = $1::uuid AND qi.created_at >= $2::timestamptz AND qi.environment_id = $3::uuid
  GROUP BY 1`;

/** The business's quotes in the environment since `since`, per UTC day (days without any left out). */
export async function countQuotesPerDay(db: DbOrTx, businessId: string, environmentId: string | null, since: Date) {
  return sqlRows<{ day: string; succeeded: number; requiresInput: number; failed: number }>(db, QUOTES_PER_DAY_SQL, [businessId, since, environmentId]);
}

const API_CALLS_SQL = `SELECT count(*)::int AS total, count(*) FILTER (WHERE status >= 400)::int AS failed
  FROM request_logs WHERE workspace_id = $1::uuid AND business_id = $2::uuid AND created_at >= $3::timestamptz AND NOT portal`;

/** API calls filed under the business since `since`, the portal's own left out. */
export async function countApiCalls(db: DbOrTx, business: { id: string; workspaceId: string }, since: Date) {
  const [row] = await sqlRows<{ total: number; failed: number }>(db, API_CALLS_SQL, [business.workspaceId, business.id, since]);
  return row;
}

const WEBHOOK_ATTEMPTS_SQL = `SELECT count(*)::int AS attempts, count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299)::int AS succeeded
  FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE e.environment_id = $1::uuid AND a.started_at >= $2::timestamptz`;

/** Webhook attempts to the environment's endpoints since `since`. */
export async function countWebhookAttempts(db: DbOrTx, environmentId: string | null, since: Date) {
  const [row] = await sqlRows<{ attempts: number; succeeded: number }>(db, WEBHOOK_ATTEMPTS_SQL, [environmentId, since]);
  return row;
}

const SETUP_SQL = `SELECT EXISTS (SELECT 1 FROM publications p JOIN projects pr ON pr.primary_book_id = p.book_id
                    WHERE pr.id = $2::uuid AND p.environment_id = $3::uuid) AS "bookPublished",
     EXISTS (SELECT 1 FROM api_keys k WHERE k.project_id = $2::uuid AND k.status <> 'revoked') AS "apiKeyCreated",
     EXISTS (SELECT 1 FROM quote_intents qi WHERE qi.business_id = $1::uuid) AS "quoteMade",
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
    (SELECT count(*) FROM quote_acceptances qa WHERE qa.business_id = r.id AND qa.status = 'new')::int AS "newLeads"
  FROM readable r`;

export async function countInboxOf(db: DbOrTx, userId: string) {
  return sqlRows<{ businessId: string; heldQuotes: number; newLeads: number }>(db, INBOX_SQL, [userId]);
}

// Live hosted-page and member quotes whose price runs out soon and that nobody accepted yet.
const EXPIRING_INTENTS_SQL = `SELECT count(*)::int AS count FROM quote_intents qi
  WHERE qi.business_id = $1::uuid AND qi.environment_id = $2::uuid AND qi.status = 'succeeded'
    AND qi.expires_at > $3::timestamptz AND qi.expires_at <= $4::timestamptz
    AND NOT EXISTS (SELECT 1 FROM quote_acceptances qa WHERE qa.quote_intent_id = qi.id)`;

export async function countExpiringIntents(db: DbOrTx, where: { businessId: string; environmentId: string; now: Date; until: Date }): Promise<number> {
  const [row] = await sqlRows<{ count: number }>(db, EXPIRING_INTENTS_SQL, [where.businessId, where.environmentId, where.now, where.until]);
  return row.count;
}
