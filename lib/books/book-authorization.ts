import { requireWorkspaceMember, type WorkspacePermission } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';

/** The book, if the person is a member of its workspace (with the permission, when named). */
export async function requireBook(db: DbOrTx, principal: SessionPrincipal, bookId: string, permission?: WorkspacePermission) {
  const book = await db.book.findUnique({
    where: { id: bookId },
    select: { id: true, projectId: true, project: { select: { workspaceId: true } } },
  });
  const notFound = `Book ${bookId} does not exist.`;
  if (!book) throw new ServiceError('not_found', notFound);
  await requireWorkspaceMember(db, principal, book.project.workspaceId, permission, notFound);
  noteTenancy({ projectId: book.projectId });
  return { id: book.id, projectId: book.projectId, workspaceId: book.project.workspaceId };
}
