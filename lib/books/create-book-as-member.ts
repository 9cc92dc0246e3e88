import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { createBook } from './create-book';
import { getBook } from './read-books';
import { findProjectWorkspaceId, isUniqueViolation } from './store';

/** POST /v1/books (`books:edit`). */
export async function createBookAsMember(
  ctx: VerbContext<SessionPrincipal>,
  input: { projectId: string; key: string; name: string; makePrimary?: boolean },
) {
  const { db, principal } = ctx;
  const workspaceId = await findProjectWorkspaceId(db, input.projectId);
  if (workspaceId === null) throw new ServiceError('not_found', `Project ${input.projectId} does not exist.`);
  await requireWorkspaceMember(db, principal, workspaceId, 'books:edit', `Project ${input.projectId} does not exist.`);
  const book = await createBook(ctx, input).catch((error: unknown) => {
    // The (project, key) unique index decides, also between two requests at the same moment.
    if (isUniqueViolation(error)) throw new ServiceError('conflict', `The project already has a book with key "${input.key}".`);
    throw error;
  });
  return getBook(ctx, { bookId: book.id });
}
