import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { parseRunningExperiment, type RunningExperiment } from '../experiments/running-experiment';
import { publicIdempotencyScope, readApiScope, readPublicScope, rememberedScope, type QuoteIdempotency } from './store';

/** Where a quote is computed and stored: resolved by the service, never chosen by a parameter. */
export type QuoteScope = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string;
  businessId: string;
  /** The version the (book, environment) publication points at now; null when none. */
  publishedVersionId: string | null;
  /**
   * The experiment running on that publication (read with it, remembered with the scope): quotes
   * it covers are priced with their subject's arm. null: none runs. Undefined: not read, and the
   * insert does not re-check it.
   */
  experiment?: RunningExperiment | null;
  /** An intent already stored under the request's idempotency key (undefined: not looked up). */
  existingIntentId?: string | null;
  /** The public surface serves the project's primary book only; the insert re-checks it. */
  bookMustBePrimary: boolean;
};

/**
 * Where a quote goes, resolved fresh (a query) or reused from an earlier request. A reused
 * scope is safe because the quote's insert re-checks it in the same statement (connection,
 * publication, primary book) and, when anything changed, asks again with `fresh`.
 */
export type ScopeResolver = (fresh: boolean) => Promise<QuoteScope>;

/** The API-key route's scope, remembered per environment, book and business. */
export function apiQuoteScope(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  request: { businessId: string; bookId: string },
  idempotency: QuoteIdempotency,
): ScopeResolver {
  return (fresh) =>
    rememberedScope(
      `api:${principal.environmentId}:${request.bookId}:${request.businessId}`,
      fresh,
      () => resolveApiQuoteScope(db, principal, request, idempotency),
      idempotency,
    );
}

/** The public route's scope, remembered per business. */
export function publicQuoteScope(db: DbOrTx, businessId: string, idempotencyKey?: string): ScopeResolver {
  return (fresh) =>
    rememberedScope(`public:${businessId}`, fresh, () => resolvePublicQuoteScope(db, businessId, idempotencyKey), {
      scope: publicIdempotencyScope(businessId),
      key: idempotencyKey,
    });
}

/**
 * API-key route: the book must belong to the key's project, and the business must reach that
 * project through an active connection. The environment is the key's, always.
 */
async function resolveApiQuoteScope(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  request: { businessId: string; bookId: string },
  idempotency: QuoteIdempotency,
): Promise<QuoteScope> {
  const { bookId, connected, ...read } = await readApiScope(db, principal, request, idempotency);
  if (!bookId || !connected) {
    throw new ServiceError(
      'quote_scope_not_found',
      !bookId
        ? `Book ${request.bookId} does not exist in this API key's project.`
        : `Business ${request.businessId} is not connected to this API key's project.`,
    );
  }
  return { ...read, bookId, experiment: parseRunningExperiment(read.experiment), bookMustBePrimary: false };
}

/**
 * Public route: the business's active connection, its project's Live environment and primary
 * book. Anything missing makes the surface unavailable (404), whatever the reason.
 */
export async function resolvePublicQuoteScope(db: DbOrTx, businessId: string, idempotencyKey?: string): Promise<QuoteScope> {
  const read = await readPublicScope(db, businessId, idempotencyKey);
  if (!read?.bookId) throw surfaceUnavailable();
  const { connected: _connected, bookId, ...scope } = read;
  return { ...scope, bookId, experiment: parseRunningExperiment(scope.experiment), bookMustBePrimary: true };
}

export function surfaceUnavailable() {
  return new ServiceError('quote_surface_unavailable', 'This business does not offer quotes here right now.');
}
