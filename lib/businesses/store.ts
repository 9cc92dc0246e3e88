import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { PublishGuard } from '../books/impact-schemas';
import type { Branding } from './schemas';

/**
 * The businesses' store: the only place with SQL for businesses and their connections, and for
 * Verbs (one per file in this folder) read as flow.
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
