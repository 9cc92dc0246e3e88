import type { VerbContext } from '../context/verb-context';
import { afterTimeIdCursor, timeIdPage } from '../http/cursors';
import { impactSummarySchema, type PublicationRecordView } from './impact-schemas';

/**
 * GET /v1/books/{id}/publications: the book's publications, newest first, keyset-paginated by
 * (createdAt, id); the caller has authorized the book (requireBook).
 */
export async function listPublicationRecords(
  { db }: VerbContext,
  { bookId, query }: { bookId: string; query: { limit: number; cursor?: string } },
) {
  const rows = await db.publicationRecord.findMany({
    where: {
      bookId,
      ...afterTimeIdCursor(query.cursor),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
    select: { id: true, environmentId: true, bookVersionId: true, previousVersionId: true, publishedBy: true, impact: true, confirmation: true, createdAt: true },
  });
  const { page, nextCursor } = timeIdPage(rows, query.limit);
  const versionIds = [...new Set(page.flatMap((r) => (r.previousVersionId ? [r.bookVersionId, r.previousVersionId] : [r.bookVersionId])))];
  const [versions, environments] = await Promise.all([
    db.bookVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, number: true } }),
    db.environment.findMany({ where: { id: { in: [...new Set(page.map((r) => r.environmentId))] } }, select: { id: true, kind: true } }),
  ]);
  const number = new Map(versions.map((v) => [v.id, v.number]));
  const kind = new Map(environments.map((e) => [e.id, e.kind]));
  return {
    publications: page.map(
      (r): PublicationRecordView => ({
        id: r.id,
        environment: kind.get(r.environmentId)!,
        version: { id: r.bookVersionId, number: number.get(r.bookVersionId)! },
        previousVersion: r.previousVersionId ? { id: r.previousVersionId, number: number.get(r.previousVersionId)! } : null,
        publishedBy: r.publishedBy,
        publishedAt: r.createdAt.toISOString(),
        // Stored as written; read through its schema so that only its fields leave.
        impact: r.impact === null ? null : impactSummarySchema.parse(r.impact),
        confirmation: r.confirmation,
      }),
    ),
    nextCursor,
  };
}
