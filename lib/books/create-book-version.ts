import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { parseOrThrow } from '../errors/parse-or-throw';
import { bookArtifactSchema } from '../pricing';
import { canonicalHash } from '../hash/canonical-hash';
import { latestVersionNumber, insertVersion, lockBook, type CreatedBookVersion } from './store';

export type CreateBookVersionInput = { bookId: string; artifact: unknown; createdBy?: string };

/**
 * Freezes an artifact into the book's next immutable version. The artifact is validated first
 * (an invalid book can never be published) and stored with its defaults applied, so that
 * the hash covers exactly what the engine evaluates. It runs in a transaction (its own, or the caller's).
 */
export async function createBookVersion(ctx: VerbContext, input: CreateBookVersionInput): Promise<CreatedBookVersion> {
  const artifact = parseOrThrow(bookArtifactSchema, input.artifact, 'invalid_request', 'artifact');
  return withTransaction(ctx, async ({ db, now }) => {
    // The book's row lock makes versions created at the same moment take turns, so each reads
    // the latest number after the one before it committed.
    if (!(await lockBook(db, input.bookId))) throw new ServiceError('not_found', `Book ${input.bookId} does not exist.`);
    const latest = await latestVersionNumber(db, input.bookId);
    return insertVersion(db, {
      bookId: input.bookId,
      number: (latest ?? 0) + 1,
      artifact,
      artifactHash: canonicalHash(artifact),
      createdBy: input.createdBy,
      createdAt: now,
    });
  });
}
