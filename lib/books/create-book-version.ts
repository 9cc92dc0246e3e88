import { withTransaction, type VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { parseOrThrow } from '../errors/parse-or-throw';
import { bookArtifactSchema, type BookArtifact } from '../pricing';
import { canonicalHash } from '../hash/canonical-hash';

export type CreateBookVersionInput = { bookId: string; artifact: unknown; createdBy?: string };
export type CreatedBookVersion = { id: string; bookId: string; number: number; artifactHash: string; createdAt: Date };

/**
 * Freezes an artifact into the book's next immutable version. The artifact is validated first
 * (an invalid book can never be published) and stored with its defaults applied, so that
 * the hash covers exactly what the engine evaluates. It runs in a transaction (its own, or the caller's).
 */
export async function createBookVersion(ctx: VerbContext, input: CreateBookVersionInput): Promise<CreatedBookVersion> {
  const artifact = parseOrThrow(bookArtifactSchema, input.artifact, 'invalid_request', 'artifact');
  // The book's row lock makes versions created at the same moment take turns, so each reads
  // the latest number after the one before it committed.
  return withTransaction(ctx, (tx) => insertNextVersion(tx.db, input, artifact, tx.now));
}

async function insertNextVersion(
  db: DbOrTx,
  input: CreateBookVersionInput,
  artifact: BookArtifact,
  now: Date,
): Promise<CreatedBookVersion> {
  const [book] = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM books WHERE id = ${input.bookId}::uuid FOR UPDATE`;
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
