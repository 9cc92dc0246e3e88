import type { EnvironmentName } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import { afterTimeIdCursor, timeIdPage } from '../../db/cursors';
import type { ImpactSummary } from '../impact-schemas';

// ---------------------------------------------------------------------------------------------
// Rows

/** A publication record as its view (list-publication-records.ts) reads it. */
const publicationRecordSelect = {
  id: true,
  environmentId: true,
  bookVersionId: true,
  previousVersionId: true,
  publishedBy: true,
  impact: true,
  confirmation: true,
  createdAt: true,
} satisfies Prisma.PublicationRecordSelect;

export type PublicationRecordRow = Prisma.PublicationRecordGetPayload<{ select: typeof publicationRecordSelect }>;

/** The audit record of one publication: who published what over which version, having seen what. */
export type NewPublicationRecord = {
  bookId: string;
  environmentId: string;
  bookVersionId: string;
  previousVersionId: string | null;
  publishedBy: string | null;
  impact: ImpactSummary | undefined;
  confirmation: string | null;
  createdAt: Date;
};

// ---------------------------------------------------------------------------------------------
// Environments

/** The id of the project's Test or Live environment (every project has both). */
export async function environmentIdOf(db: DbOrTx, projectId: string, kind: EnvironmentName): Promise<string> {
  const [environment] = await sqlRows<{ id: string }>(
    db,
    `SELECT id::text AS id FROM environments WHERE project_id = $1::uuid AND kind = $2::"EnvironmentKind"`,
    [projectId, kind],
  );
  if (!environment) throw new Error(`Project ${projectId} has no ${kind} environment.`);
  return environment.id;
}

/** Test or Live, of the given environments, by id. */
export async function environmentKinds(db: DbOrTx, environmentIds: readonly string[]): Promise<Map<string, EnvironmentName>> {
  const environments = await db.environment.findMany({ where: { id: { in: [...environmentIds] } }, select: { id: true, kind: true } });
  return new Map(environments.map((e) => [e.id, e.kind]));
}

// ---------------------------------------------------------------------------------------------
// Publications

/** The version the (book, environment) publication points at, or null before the first. */
export async function publishedVersionIdOf(db: DbOrTx, bookId: string, environmentId: string): Promise<string | null> {
  const publication = await db.publication.findUnique({
    where: { bookId_environmentId: { bookId, environmentId } },
    select: { bookVersionId: true },
  });
  return publication?.bookVersionId ?? null;
}

/** The experiment running on the (book, environment) publication, if any: its id and name. */
export async function experimentOnPublication(db: DbOrTx, bookId: string, environmentId: string): Promise<{ id: string; name: string } | null> {
  const publication = await db.publication.findUnique({
    where: { bookId_environmentId: { bookId, environmentId } },
    select: { runningExperiment: { select: { id: true, name: true } } },
  });
  return publication?.runningExperiment ?? null;
}

/** Points the (book, environment) publication at a version, creating it the first time. */
export async function upsertPublication(
  db: DbOrTx,
  publication: { bookId: string; environmentId: string; bookVersionId: string; updatedAt: Date },
) {
  const { bookId, environmentId, bookVersionId, updatedAt } = publication;
  return db.publication.upsert({
    where: { bookId_environmentId: { bookId, environmentId } },
    create: publication,
    update: { bookVersionId, updatedAt },
    select: { id: true, bookId: true, environmentId: true, bookVersionId: true, updatedAt: true },
  });
}

export async function insertPublicationRecord(db: DbOrTx, record: NewPublicationRecord): Promise<void> {
  await db.publicationRecord.create({ data: record });
}

/** The book's publication records, newest first, keyset-paginated by (createdAt, id). */
export async function findPublicationRecords(db: DbOrTx, bookId: string, query: { limit: number; cursor?: string }) {
  const rows = await db.publicationRecord.findMany({
    where: { bookId, ...afterTimeIdCursor(query.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: publicationRecordSelect,
  });
  return timeIdPage(rows, query.limit);
}

// ---------------------------------------------------------------------------------------------
// The publishing safeguard

/**
 * The strictest safeguard settings of the businesses the project serves (active connections);
 * nulls when none has one.
 */
export async function strictestPublishGuard(
  db: DbOrTx,
  projectId: string,
): Promise<{ changePercent: number | null; sharePercent: number | null } | undefined> {
  const [row] = await sqlRows<{ changePercent: number | null; sharePercent: number | null }>(
    db,
    `SELECT min(b.publish_guard_change_percent) AS "changePercent", min(b.publish_guard_share_percent) AS "sharePercent"
       FROM connections c JOIN businesses b ON b.id = c.business_id
      WHERE c.project_id = $1::uuid AND c.status = 'active'`,
    [projectId],
  );
  return row;
}
