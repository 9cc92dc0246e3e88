import type { VerbContext } from '../context/verb-context';
import { impactSummarySchema, type PublicationRecordView } from './impact-schemas';
import { environmentKinds, findPublicationRecords, versionNumbers } from './store';

/**
 * GET /v1/books/{id}/publications: the book's publications, newest first, keyset-paginated by
 * (createdAt, id); the caller has authorized the book (requireBook).
 */
export async function listPublicationRecords(
  { db }: VerbContext,
  { bookId, query }: { bookId: string; query: { limit: number; cursor?: string } },
) {
  const { page, nextCursor } = await findPublicationRecords(db, bookId, query);
  const versionIds = [...new Set(page.flatMap((r) => (r.previousVersionId ? [r.bookVersionId, r.previousVersionId] : [r.bookVersionId])))];
  const [number, kind] = await Promise.all([
    versionNumbers(db, versionIds),
    environmentKinds(db, [...new Set(page.map((r) => r.environmentId))]),
  ]);
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
