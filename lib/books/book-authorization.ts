import { requireWorkspaceMember, type WorkspacePermission } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';
import { findBookTenancy, quotesFromProject, type BookTenancy } from './store';

/**
 * The book, if the person is a member of its workspace (with the permission, when named). To
 * read it, an active member of a business that quotes from the book's project will do too: a
 * business owner reads the prices their quotes came from.
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
    const mayRead = permission === undefined && error instanceof ServiceError && error.code === 'not_found';
    if (!mayRead || !(await quotesFromProject(db, principal.userId, book.projectId))) throw error;
  }
  noteTenancy({ projectId: book.projectId });
  return book;
}
