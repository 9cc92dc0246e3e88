import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';

/** Where a quote is computed and stored: resolved by the service, never chosen by a parameter. */
export type QuoteScope = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string;
  businessId: string;
  /** The version the (book, environment) publication points at now; null when none. */
  publishedVersionId: string | null;
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

// Per process, bounded; an entry lives until a write finds it stale or it is pushed out.
const rememberedScopes = new LRUCache<string, QuoteScope>({ max: 10_000 });

function remembering(key: string, resolve: () => Promise<QuoteScope>): ScopeResolver {
  return async (fresh) => {
    if (!fresh) {
      const known = rememberedScopes.get(key);
      if (known) return known;
    }
    rememberedScopes.delete(key);
    const scope = await resolve();
    // Nothing published yet: ask again next time rather than answer from memory.
    if (!scope.publishedVersionId) return scope;
    rememberedScopes.set(key, { ...scope, existingIntentId: undefined });
    return scope;
  };
}

/** The API-key route's scope, remembered per environment, book and business. */
export function apiQuoteScope(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  request: { businessId: string; bookId: string },
  idempotency: { scope: string; key: string | undefined },
): ScopeResolver {
  return remembering(`api:${principal.environmentId}:${request.bookId}:${request.businessId}`, () =>
    resolveApiQuoteScope(db, principal, request, idempotency),
  );
}

/** The public route's scope, remembered per business. */
export function publicQuoteScope(db: DbOrTx, businessId: string, idempotencyKey?: string): ScopeResolver {
  return remembering(`public:${businessId}`, () => resolvePublicQuoteScope(db, businessId, idempotencyKey));
}

type ScopeRow = {
  book_id: string | null;
  connected: boolean;
  published_version_id: string | null;
  existing_intent_id: string | null;
};

/**
 * API-key route: the book must belong to the key's project, and the business must reach that
 * project through an active connection. The environment is the key's, always.
 */
async function resolveApiQuoteScope(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  request: { businessId: string; bookId: string },
  idempotency: { scope: string; key: string | undefined },
): Promise<QuoteScope> {
  // One round trip: the book, the connection, the publication and any intent under the key.
  const [row] = await sqlRows<ScopeRow>(
    db,
    `SELECT b.id::text AS book_id,
       EXISTS (SELECT 1 FROM connections c WHERE c.business_id = $1::uuid
               AND c.project_id = $2::uuid AND c.status = 'active') AS connected,
       (SELECT p.book_version_id::text FROM publications p
         WHERE p.book_id = b.id AND p.environment_id = $3::uuid) AS published_version_id,
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = $3::uuid
         AND qi.idempotency_scope = $4::text AND qi.idempotency_key = $5::text) AS existing_intent_id
     FROM (SELECT 1) AS one
     LEFT JOIN books b ON b.id = $6::uuid AND b.project_id = $2::uuid`,
    [request.businessId, principal.projectId, principal.environmentId, idempotency.scope, idempotency.key ?? null, request.bookId],
  );
  if (!row.book_id || !row.connected) {
    throw new ServiceError(
      'quote_scope_not_found',
      !row.book_id
        ? `Book ${request.bookId} does not exist in this API key's project.`
        : `Business ${request.businessId} is not connected to this API key's project.`,
    );
  }
  return {
    workspaceId: principal.workspaceId,
    projectId: principal.projectId,
    environmentId: principal.environmentId,
    bookId: row.book_id,
    businessId: request.businessId,
    publishedVersionId: row.published_version_id,
    existingIntentId: row.existing_intent_id,
    bookMustBePrimary: false,
  };
}

/**
 * Public route: the business's active connection, its project's Live environment and primary
 * book. Anything missing makes the surface unavailable (404), whatever the reason.
 */
export async function resolvePublicQuoteScope(
  db: DbOrTx,
  businessId: string,
  idempotencyKey?: string,
): Promise<QuoteScope> {
  const [row] = await sqlRows<{
    project_id: string;
    workspace_id: string;
    environment_id: string;
    book_id: string | null;
    published_version_id: string | null;
    existing_intent_id: string | null;
  }>(
    db,
    `SELECT pr.id::text AS project_id, pr.workspace_id::text AS workspace_id, e.id::text AS environment_id,
       pr.primary_book_id::text AS book_id, pub.book_version_id::text AS published_version_id,
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = e.id
         AND qi.idempotency_scope = $1::text AND qi.idempotency_key = $2::text) AS existing_intent_id
     FROM connections c
     JOIN projects pr ON pr.id = c.project_id
     JOIN environments e ON e.project_id = pr.id AND e.kind = 'live'
     LEFT JOIN publications pub ON pub.book_id = pr.primary_book_id AND pub.environment_id = e.id
     WHERE c.business_id = $3::uuid AND c.status = 'active'
     LIMIT 1`,
    [`public:${businessId}`, idempotencyKey ?? null, businessId],
  );
  if (!row?.book_id) throw surfaceUnavailable();
  return {
    workspaceId: row.workspace_id,
    projectId: row.project_id,
    environmentId: row.environment_id,
    bookId: row.book_id,
    businessId,
    publishedVersionId: row.published_version_id,
    existingIntentId: row.existing_intent_id,
    bookMustBePrimary: true,
  };
}

export function surfaceUnavailable() {
  return new ServiceError('quote_surface_unavailable', 'This business does not offer quotes here right now.');
}
