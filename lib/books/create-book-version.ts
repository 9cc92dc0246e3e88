import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { parseOrThrow } from '../errors/parse-or-throw';
import { bookArtifactSchema } from '../pricing';
import { canonicalHash } from '../hash/canonical-hash';

export type CreateBookVersionInput = { bookId: string; artifact: unknown; createdBy?: string };

/**
 * Freezes an artifact into the book's next immutable version. The artifact is validated first
 * (an invalid book can never be published) and stored with its defaults applied, so that
 * the hash covers exactly what the engine evaluates.
 */
export async function createBookVersion(db: DbOrTx, input: CreateBookVersionInput, now: Date) {
  const artifact = parseOrThrow(bookArtifactSchema, input.artifact, 'invalid_request', 'artifact');
  const book = await db.book.findUnique({ where: { id: input.bookId }, select: { id: true } });
  if (!book) throw new ServiceError('not_found', `Book ${input.bookId} does not exist.`);
  const latest = await db.bookVersion.findFirst({
    where: { bookId: input.bookId },
    orderBy: { number: 'desc' },
    select: { number: true },
  });
  return db.bookVersion.create({
    data: {
      bookId: input.bookId,
      number: (latest?.number ?? 0) + 1,
      artifact,
      artifactHash: canonicalHash(artifact),
      createdBy: input.createdBy,
      createdAt: now,
    },
    select: { id: true, bookId: true, number: true, artifactHash: true, createdAt: true },
  });
}
