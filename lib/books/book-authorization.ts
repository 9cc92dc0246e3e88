import { requireWorkspaceMember, type WorkspacePermission } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';
import { findBookTenancy, quotesFromProject, type BookTenancy } from './store';

/**
 * The book, if the person is a member of its workspace (with the permission, when named). To
 * read it, an active member of a business that quotes from the book's project will do too: a
 * business owner reads the prices their quotes came from. Someone who can read the book and is
 * refused a change to it learns why (403 `forbidden`); only those who cannot see it get 404.
 */
export async function requireBook(
  { db, principal }: VerbContext<SessionPrincipal>,
  { bookId, permission }: { bookId: string; permission?: WorkspacePermission },
): Promise<BookTenancy> {
  const book = await findBookTenancy(db, bookId);
  const notFound = `Book ${bookId} does not exist.`;
  if (!book) throw new ServiceError('not_found', notFound);
  try {
    await requireWorkspaceMember(db, principal, book.workspaceId, permission, notFound);
  } catch (error) {
    const outsideWorkspace = error instanceof ServiceError && error.code === 'not_found';
    if (!outsideWorkspace || !(await quotesFromProject(db, principal.userId, book.projectId))) throw error;
    if (permission !== undefined) {
      throw new ServiceError('forbidden', `This needs the workspace permission "${permission}"; members of a business read its book only.`);
    }
  }
  noteTenancy({ projectId: book.projectId });
  return book;
}
