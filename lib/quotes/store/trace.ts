import type { DbOrTx } from '../../db/client';
import { type QuoteIntentRow } from './rows';

// The quotes' store (lib/quotes/store.ts): what a trace shows besides the quote.

/**
 * The quote's pinned version, book, creating request (when its workspace's request log still
 * shows it: `requestShownSince`), environment, and its events with their deliveries.
 */
export async function readTraceOf(db: DbOrTx, stored: QuoteIntentRow, requestShownSince: Date | null) {
  const [version, book, request, environment, events] = await Promise.all([
    stored.bookVersionId
      ? db.bookVersion.findUnique({ where: { id: stored.bookVersionId }, select: { id: true, number: true, artifactHash: true } })
      : null,
    db.book.findUnique({ where: { id: stored.bookId }, select: { id: true, key: true, name: true } }),
    // The request's row is stamped with the quote's own clock reading: its day's partition only.
    db.requestLog.findFirst({
      where: {
        requestId: stored.requestCorrelationId,
        AND: [requestShownSince ? { createdAt: { gte: requestShownSince } } : {}, { createdAt: { gte: new Date(stored.createdAt.getTime() - 60_000), lt: new Date(stored.createdAt.getTime() + 60_000) } }],
      },
    }),
    db.environment.findUnique({ where: { id: stored.environmentId }, select: { kind: true } }),
    db.outboxEvent.findMany({
      where: { subjectId: stored.id },
      orderBy: { seq: 'asc' },
      select: {
        id: true,
        type: true,
        createdAt: true,
        deliveries: {
          orderBy: { createdAt: 'asc' },
          select: {
            id: true,
            endpointId: true,
            endpoint: { select: { url: true, deletedAt: true } },
            status: true,
            attemptCount: true,
            nextAttemptAt: true,
            replayOfId: true,
            createdAt: true,
          },
        },
      },
    }),
  ]);
  return { version, book, request, environment, events };
}

/** The book a member quotes against, in the connected project, with its Live publication: one read. */
export async function readMemberBook(db: DbOrTx, where: { bookId: string; projectId: string; liveEnvironmentId: string }) {
  const book = await db.book.findFirst({
    where: { id: where.bookId, projectId: where.projectId },
    select: { id: true, publications: { where: { environmentId: where.liveEnvironmentId }, select: { bookVersionId: true } } },
  });
  return book && { bookId: book.id, publishedVersionId: book.publications[0]?.bookVersionId ?? null };
}
