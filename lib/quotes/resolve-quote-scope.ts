import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';

/** Where a quote is computed and stored: resolved by the service, never chosen by a parameter. */
export type QuoteScope = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string;
  businessId: string;
};

/**
 * API-key route: the book must belong to the key's project, and the business must reach that
 * project through an active connection. The environment is the key's, always.
 */
export async function resolveApiQuoteScope(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  request: { businessId: string; bookId: string },
): Promise<QuoteScope> {
  const [book, connection] = await Promise.all([
    db.book.findFirst({ where: { id: request.bookId, projectId: principal.projectId }, select: { id: true } }),
    db.connection.findFirst({
      where: { businessId: request.businessId, projectId: principal.projectId, status: 'active' },
      select: { id: true },
    }),
  ]);
  if (!book || !connection) {
    throw new ServiceError(
      'quote_scope_not_found',
      !book
        ? `Book ${request.bookId} does not exist in this API key's project.`
        : `Business ${request.businessId} is not connected to this API key's project.`,
    );
  }
  return {
    workspaceId: principal.workspaceId,
    projectId: principal.projectId,
    environmentId: principal.environmentId,
    bookId: book.id,
    businessId: request.businessId,
  };
}

/**
 * Public route: the business's active connection, its project's Live environment and primary
 * book. Anything missing makes the surface unavailable (404), whatever the reason.
 */
export async function resolvePublicQuoteScope(db: DbOrTx, businessId: string): Promise<QuoteScope> {
  const connection = await db.connection.findFirst({
    where: { businessId, status: 'active' },
    select: {
      project: {
        select: {
          id: true,
          workspaceId: true,
          primaryBookId: true,
          environments: { where: { kind: 'live' }, select: { id: true } },
        },
      },
    },
  });
  const project = connection?.project;
  const live = project?.environments[0];
  if (!project || !live || !project.primaryBookId) throw surfaceUnavailable();
  return {
    workspaceId: project.workspaceId,
    projectId: project.id,
    environmentId: live.id,
    bookId: project.primaryBookId,
    businessId,
  };
}

export function surfaceUnavailable() {
  return new ServiceError('quote_surface_unavailable', 'This business does not offer quotes here right now.');
}
