import type { z } from 'zod';
import type { BusinessAccess } from '../auth/permissions';
import { ServiceError } from '../errors/service-error';
import { createQuote, type QuoteContext } from './create-quote';
import type { QuoteScope } from './resolve-quote-scope';
import { readMemberBook } from './store';
import { parseRunningExperiment } from '../experiments/running-experiment';
import type { memberQuoteRequestSchema } from './schemas';

/**
 * POST /v1/businesses/{id}/quotes: any active member (the route's `requireBusinessMember`) quotes
 * against the Live environment of the business's connection, pinned server-side. The book must
 * belong to the connected project.
 */
export async function createMemberQuote(
  ctx: QuoteContext,
  { access, businessId, request }: { access: BusinessAccess; businessId: string; request: z.output<typeof memberQuoteRequestSchema> },
) {
  const { scope, ...created } = await createQuote(ctx, {
    // Members quote rarely: the book is read afresh for every attempt (the insert re-checks it).
    resolveScope: () => resolveMemberScope(ctx, access, businessId, request.bookId),
    source: 'hosted',
    surface: 'member',
    idempotencyScope: `member:${businessId}`,
    inputs: { offeringId: request.offeringId, factors: request.factors },
    idempotencyKey: request.idempotencyKey,
    payload: { businessId, bookId: request.bookId, offeringId: request.offeringId, factors: request.factors },
    whenUnpublished: 'failed_receipt',
  });
  return { ...created, environmentId: scope.environmentId, projectId: scope.projectId, workspaceId: scope.workspaceId };
}

async function resolveMemberScope(ctx: QuoteContext, access: BusinessAccess, businessId: string, bookId: string): Promise<QuoteScope> {
  const connection = access.connection;
  const book = connection
    ? await readMemberBook(ctx.db, { bookId, projectId: connection.projectId, liveEnvironmentId: connection.liveEnvironmentId })
    : null;
  if (!connection || !book) {
    throw new ServiceError('quote_scope_not_found', `Book ${bookId} is not available to business ${businessId}.`);
  }
  return {
    workspaceId: access.business.workspaceId,
    projectId: connection.projectId,
    environmentId: connection.liveEnvironmentId,
    bookId: book.bookId,
    businessId,
    publishedVersionId: book.publishedVersionId,
    experiment: parseRunningExperiment(book.experiment),
    bookMustBePrimary: false,
  };
}
