import type { ApiKeyPrincipal } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import { authenticateApiKey, rememberedApiKey } from '../../keys/authenticate-api-key';

// The quotes' store (lib/quotes/store.ts): API keys taken from memory for a quote.

/**
 * Authentication for POST /v1/quotes: a key this process found valid recently is taken from
 * memory, without a query, because the quote's insert re-checks it (insertQuote's `key_holds`).
 * `confirm` gives the principal the answer may go out under: the same one when the insert
 * confirmed the key, else the key checked afresh (a request that failed before its insert, or a
 * key revoked a moment ago, still gets the database's verdict).
 */
export async function authenticateQuoteKey(
  db: DbOrTx,
  authorization: string | null,
  now: Date,
): Promise<{ principal: ApiKeyPrincipal; confirm?: () => Promise<ApiKeyPrincipal> }> {
  const remembered = rememberedApiKey(authorization, now);
  // Read from the database just now: nothing left to confirm.
  if (!remembered) return { principal: await authenticateApiKey(db, authorization, now) };
  // This request's own copy: the remembered principal is shared by every request of the key.
  const principal: ApiKeyPrincipal = { ...remembered, fromMemory: { confirmed: false } };
  return {
    principal,
    confirm: async () => (principal.fromMemory!.confirmed ? principal : authenticateApiKey(db, authorization, now)),
  };
}
