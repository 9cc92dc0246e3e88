import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { createBookVersion } from './create-book-version';
import { readDraft } from './store';

/** POST /v1/books/{id}/versions (`books:publish`, checked by the route): freezes the given artifact, or the draft. */
export async function createVersionAsMember(
  ctx: VerbContext<SessionPrincipal>,
  { bookId, artifact }: { bookId: string; artifact: unknown | undefined },
) {
  const { db, principal } = ctx;
  const source = artifact !== undefined ? artifact : await readDraft(db, bookId);
  if (source === null) throw new ServiceError('invalid_request', 'There is no draft to publish: send an artifact.');
  // Versions created at the same moment take turns on the book's row (createBookVersion).
  const version = await createBookVersion(ctx, { bookId, artifact: source, createdBy: principal.email });
  return { ...version, createdBy: principal.email, createdAt: version.createdAt.toISOString() };
}
