import type { ApiKeyView } from './schemas';
import type { ApiKeyRow } from './store';

/** The public view of a key row. A key whose grace window has ended reads as revoked. */
export function toApiKeyView(row: ApiKeyRow, now: Date): ApiKeyView {
  const expired = row.revokedAt !== null && row.revokedAt <= now;
  return {
    id: row.id,
    name: row.name,
    environment: row.environment.kind,
    status: expired ? 'revoked' : row.status,
    displayPrefix: row.displayPrefix,
    last4: row.last4,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
