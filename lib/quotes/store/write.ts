import type { ApiKeyPrincipal } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { Statement } from '../../db/statement';
import { eventCtes, type OutboxEventRow } from '../../events/store';
import { signsAt } from '../../receipts/store';
import { unconfirmedKeys } from './keys';
import { type QuoteIntentRow, type QuoteReceiptRow, type StoredQuote, quoteIntents, quoteReceipts } from './rows';

// The quotes' store (lib/quotes/store.ts): writing a quote.

export type QuoteGuards = {
  /** The caller's API key, re-checked by the insert when it came from memory. */
  apiKey: ApiKeyPrincipal | null;
  /** The public surface serves the project's primary book only. */
  bookMustBePrimary: boolean;
};

type InsertBindings = {
  intent: QuoteIntentRow;
  receipt: QuoteReceiptRow;
  event: OutboxEventRow;
  guard: { apiKeyId: string | null; bookMustBePrimary: boolean };
};

/**
 * Intent, receipt, outcome event and its webhook deliveries in one statement, written only while
 * the API key (when taken from memory) and the scope still hold: what the memories above rely on.
 */
const INSERT_QUOTE = new Statement<InsertBindings>((sql) => {
  const intent = (field: keyof QuoteIntentRow & string, type: Parameters<typeof sql.param>[2]) => sql.param('intent', field, type);
  const keyId = sql.param('guard', 'apiKeyId', 'uuid');
  return `WITH key_holds AS (
       SELECT 1 WHERE ${keyId} IS NULL OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${keyId}
         AND k.status <> 'revoked' AND (k.revoked_at IS NULL OR k.revoked_at > ${intent('createdAt', 'timestamptz')}))
     ), scope_holds AS (
       SELECT 1 FROM key_holds WHERE EXISTS (SELECT 1 FROM connections c WHERE c.business_id = ${intent('businessId', 'uuid')}
           AND c.project_id = ${intent('projectId', 'uuid')} AND c.status = 'active')
         AND (SELECT p.book_version_id FROM publications p WHERE p.book_id = ${intent('bookId', 'uuid')}
           AND p.environment_id = ${intent('environmentId', 'uuid')}) IS NOT DISTINCT FROM ${intent('bookVersionId', 'uuid')}
         AND (NOT ${sql.param('guard', 'bookMustBePrimary', 'boolean')}
           OR EXISTS (SELECT 1 FROM projects pr WHERE pr.id = ${intent('projectId', 'uuid')} AND pr.primary_book_id = ${intent('bookId', 'uuid')}))
     ), signer_holds AS (
       SELECT 1 FROM scope_holds WHERE EXISTS (SELECT 1 FROM receipt_signing_keys s
         WHERE s.kid = ${sql.param('receipt', 'signatureKid', 'text')} AND ${signsAt('s', intent('createdAt', 'timestamptz'))})
     ), new_intent AS (
       ${sql.insert(quoteIntents, 'intent', { from: 'signer_holds' })}
       ON CONFLICT (environment_id, idempotency_scope, idempotency_key) DO NOTHING
       RETURNING id
     ), new_receipt AS (
       ${sql.insert(quoteReceipts, 'receipt', { from: 'new_intent' })}
     ), ${eventCtes(sql, 'event', { from: 'new_intent' })}
     SELECT EXISTS (SELECT 1 FROM new_intent) AS inserted, EXISTS (SELECT 1 FROM key_holds) AS key_holds,
       EXISTS (SELECT 1 FROM scope_holds) AS scope_holds, EXISTS (SELECT 1 FROM signer_holds) AS signer_holds`;
});

export type InsertOutcome = 'inserted' | 'key_taken' | 'scope_changed' | 'key_refused' | 'signer_retired';

/**
 * Writes a quote: intent, receipt, its outcome event and deliveries, together or not at all.
 * `key_taken`: another request committed an intent under the same idempotency key first;
 * `signer_retired`: the receipt's signing key was rotated out since this process loaded it.
 */
export async function insertQuote(db: DbOrTx, quote: StoredQuote, event: OutboxEventRow, guards: QuoteGuards): Promise<InsertOutcome> {
  const keyCheck = guards.apiKey ? unconfirmedKeys.get(guards.apiKey) : undefined;
  const [written] = await sqlRows<{ inserted: boolean; key_holds: boolean; scope_holds: boolean; signer_holds: boolean }>(
    db,
    INSERT_QUOTE.text,
    INSERT_QUOTE.values({
      ...quote,
      event,
      guard: { apiKeyId: keyCheck ? guards.apiKey!.keyId : null, bookMustBePrimary: guards.bookMustBePrimary },
    }),
  );
  if (!written.key_holds) return 'key_refused';
  if (!written.scope_holds) return 'scope_changed';
  if (keyCheck) keyCheck.confirmed = true;
  if (!written.signer_holds) return 'signer_retired';
  return written.inserted ? 'inserted' : 'key_taken';
}
