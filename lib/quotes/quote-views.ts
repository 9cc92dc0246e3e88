import type { QuoteComputation } from '../pricing';
import type { QuoteIntentView, QuoteReceiptView, QuoteResult } from './schemas';
import type { QuoteIntentRow, QuoteReceiptRow } from './store';

/** Rows -> the API's `{ quoteIntent, quoteReceipt }`. Fresh and replayed quotes both pass here. */
export function toQuoteResult(intent: QuoteIntentRow, receipt: QuoteReceiptRow): QuoteResult {
  return {
    quoteIntent: {
      id: intent.id,
      workspaceId: intent.workspaceId,
      projectId: intent.projectId,
      environmentId: intent.environmentId,
      bookId: intent.bookId,
      bookVersionId: intent.bookVersionId,
      status: intent.status,
      source: intent.source,
      idempotencyKey: intent.idempotencyKey,
      requestCorrelationId: intent.requestCorrelationId,
      inputs: intent.inputs as QuoteIntentView['inputs'],
      expiresAt: intent.expiresAt?.toISOString() ?? null,
      createdAt: intent.createdAt.toISOString(),
    },
    quoteReceipt: toReceiptView(receipt),
  };
}

/** A receipt row -> the API's receipt, signature included: what the signature covers (without it). */
export function toReceiptView(receipt: QuoteReceiptRow): QuoteReceiptView {
  return {
    id: receipt.id,
    quoteIntentId: receipt.quoteIntentId,
    outcome: receipt.outcome,
    source: receipt.source,
    bookVersionId: receipt.bookVersionId,
    computation: (receipt.computation as QuoteComputation | null) ?? null,
    missingInputs: receipt.missingInputs,
    failure: (receipt.failure as QuoteReceiptView['failure']) ?? null,
    idempotencyKey: receipt.idempotencyKey,
    requestCorrelationId: receipt.requestCorrelationId,
    latencyMs: receipt.latencyMs,
    createdAt: receipt.createdAt.toISOString(),
    signature: receipt.signatureKid && receipt.signature ? { alg: 'Ed25519', kid: receipt.signatureKid, value: receipt.signature } : null,
  };
}
