import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';

// The quotes' store (lib/quotes/store.ts): scopes: where a quote goes, read fresh or remembered.

/** A request's idempotency key (when it sent one) in its namespace: `api`, `public:<businessId>` (spec 4.4). */
export type QuoteIdempotency = { scope: string; key: string | undefined };

/** A scope as the store reads it: what the quote's insert re-checks, and any intent under the key. */
export type ScopeRead = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  bookId: string | null;
  businessId: string;
  connected: boolean;
  publishedVersionId: string | null;
  /** The experiment running on the publication (its definition, as `publications.experiment` holds it), if any. */
  experiment: unknown;
  existingIntentId: string | null;
};

/** One round trip: the key's project's book, the connection, the publication, any intent under the key. */
export async function readApiScope(
  db: DbOrTx,
  principal: Pick<ApiKeyPrincipal, 'workspaceId' | 'projectId' | 'environmentId'>,
  request: { businessId: string; bookId: string },
  idempotency: QuoteIdempotency,
): Promise<ScopeRead> {
  const [row] = await sqlRows<{ bookId: string | null; connected: boolean; publishedVersionId: string | null; experiment: unknown; existingIntentId: string | null }>(
    db,
    `SELECT b.id::text AS "bookId",
       EXISTS (SELECT 1 FROM connections c WHERE c.business_id = $1::uuid
               AND c.project_id = $2::uuid AND c.status = 'active') AS connected,
       p.book_version_id::text AS "publishedVersionId", p.experiment,
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = $3::uuid
         AND qi.idempotency_scope = $4::text AND qi.idempotency_key = $5::text) AS "existingIntentId"
     FROM (SELECT 1) AS one
     LEFT JOIN books b ON b.id = $6::uuid AND b.project_id = $2::uuid
     LEFT JOIN publications p ON p.book_id = b.id AND p.environment_id = $3::uuid`,
    [request.businessId, principal.projectId, principal.environmentId, idempotency.scope, idempotency.key ?? null, request.bookId],
  );
  return { ...row, workspaceId: principal.workspaceId, projectId: principal.projectId, environmentId: principal.environmentId, businessId: request.businessId };
}

/** The namespace of the public route's idempotency keys: each business its own. */
export const publicIdempotencyScope = (businessId: string) => `public:${businessId}`;

/** The business's active connection, its project's Live environment and primary book, its publication. */
export async function readPublicScope(db: DbOrTx, businessId: string, idempotencyKey?: string): Promise<ScopeRead | null> {
  const [row] = await sqlRows<Omit<ScopeRead, 'businessId' | 'connected'>>(
    db,
    `SELECT pr.id::text AS "projectId", pr.workspace_id::text AS "workspaceId", e.id::text AS "environmentId",
       pr.primary_book_id::text AS "bookId", pub.book_version_id::text AS "publishedVersionId", pub.experiment,
       (SELECT qi.id::text FROM quote_intents qi WHERE qi.environment_id = e.id
         AND qi.idempotency_scope = $1::text AND qi.idempotency_key = $2::text) AS "existingIntentId"
     FROM connections c
     JOIN projects pr ON pr.id = c.project_id
     JOIN environments e ON e.project_id = pr.id AND e.kind = 'live'
     LEFT JOIN publications pub ON pub.book_id = pr.primary_book_id AND pub.environment_id = e.id
     WHERE c.business_id = $3::uuid AND c.status = 'active'
     LIMIT 1`,
    [publicIdempotencyScope(businessId), idempotencyKey ?? null, businessId],
  );
  return row ? { ...row, businessId, connected: true } : null;
}

// Per process, bounded; an entry lives until a write finds it stale or it is pushed out.
const rememberedScopes = new LRUCache<string, object>({ max: 10_000 });

// Per process, bounded: the keys of the quotes it wrote or found written lately. Retries come
// soon after the request they repeat.
const storedKeys = new LRUCache<string, true>({ max: 16_384 });
const storedKeyOf = (environmentId: string, scope: string, key: string) => `${environmentId} ${scope} ${key}`;

/** Notes that a quote is stored under this key: a request that sends it again is most likely a replay. */
export function rememberStoredKey(environmentId: string, idempotency: { scope: string; key: string }): void {
  storedKeys.set(storedKeyOf(environmentId, idempotency.scope, idempotency.key), true);
}

/**
 * A scope from memory unless `fresh`, else read and (when something is published) remembered.
 * Safe because insertQuote re-checks the scope in its own statement (connection, publication,
 * primary book) and answers `scope_changed` when anything moved; the caller then asks `fresh`.
 * A request under a key this process saw stored (`idempotency`) is read fresh too: the read
 * finds the stored quote in the same round trip, where a remembered scope would have the quote
 * priced, signed and sent to the insert only to learn that the key is taken.
 */
export async function rememberedScope<S extends { environmentId: string; publishedVersionId: string | null; existingIntentId?: string | null }>(
  key: string,
  fresh: boolean,
  read: () => Promise<S>,
  idempotency?: QuoteIdempotency,
): Promise<S> {
  if (!fresh) {
    const known = rememberedScopes.get(key) as S | undefined;
    const replay = known && idempotency?.key !== undefined && storedKeys.has(storedKeyOf(known.environmentId, idempotency.scope, idempotency.key));
    if (known && !replay) return known;
  }
  rememberedScopes.delete(key);
  const scope = await read();
  // Nothing published yet: ask again next time rather than answer from memory.
  if (scope.publishedVersionId) rememberedScopes.set(key, { ...scope, existingIntentId: undefined });
  return scope;
}
