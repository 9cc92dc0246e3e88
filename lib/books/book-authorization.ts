import { requireWorkspaceMember, type WorkspacePermission } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';
import { noteTenancy } from '../observability/request-context';

/**
 * The book, if the person is a member of its workspace (with the permission, when named). To
 * read it, an active member of a business that quotes from the book's project will do too: a
 * business owner reads the prices their quotes came from.
 */
export async function requireBook(
  { db, principal }: VerbContext<SessionPrincipal>,
  { bookId, permission }: { bookId: string; permission?: WorkspacePermission },
) {
  const book = await db.book.findUnique({
    where: { id: bookId },
    select: { id: true, projectId: true, project: { select: { workspaceId: true } } },
  });
  const notFound = `Book ${bookId} does not exist.`;
  if (!book) throw new ServiceError('not_found', notFound);
  try {
    await requireWorkspaceMember(db, principal, book.project.workspaceId, permission, notFound);
  } catch (error) {
    const mayRead = permission === undefined && error instanceof ServiceError && error.code === 'not_found';
    if (!mayRead || !(await quotesFromProject(db, principal, book.projectId))) throw error;
  }
  noteTenancy({ projectId: book.projectId });
  return { id: book.id, projectId: book.projectId, workspaceId: book.project.workspaceId };
}

/** Whether the person is an active member of a business with an active connection to the project. */
async function quotesFromProject(db: DbOrTx, principal: SessionPrincipal, projectId: string): Promise<boolean> {
  const rows = await sqlRows<{ one: number }>(
    db,
    `SELECT 1 AS one FROM business_members m JOIN connections c ON c.business_id = m.business_id
      WHERE m.user_id = $1::uuid AND m.status = 'active' AND c.project_id = $2::uuid AND c.status = 'active' LIMIT 1`,
    [principal.userId, projectId],
  );
  return rows.length > 0;
}
