import type { QuoteComputation } from '../pricing';
import type { QuoteIntentView, QuoteReceiptView, QuoteResult } from './schemas';
import { CURRENT_RECEIPT_FORMAT, inReceiptFormat } from '../receipts/receipt-format';
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

/**
 * A receipt row -> the API's receipt, signature included: what the signature covers (without
 * it), in the format the receipt was written in (lib/receipts/receipt-format.ts).
 */
export function toReceiptView(receipt: QuoteReceiptRow): QuoteReceiptView {
  const view = everyReceiptField(receipt);
  return receipt.formatVersion === CURRENT_RECEIPT_FORMAT ? view : inReceiptFormat(view, receipt.formatVersion);
}

/** Every field a receipt can show, for the current format. */
export function everyReceiptField(receipt: QuoteReceiptRow): QuoteReceiptView {
  // Keys in sorted order, as the engine writes the computation's: the receipt's canonical JSON
  // (what its signature covers) is then its JSON.stringify (lib/hash/canonical-json.ts).
  return {
    bookVersionId: receipt.bookVersionId,
    computation: (receipt.computation as QuoteComputation | null) ?? null,
    createdAt: receipt.createdAt.toISOString(),
    experiment: receipt.experiment ?? null,
    failure: (receipt.failure as QuoteReceiptView['failure']) ?? null,
    id: receipt.id,
    idempotencyKey: receipt.idempotencyKey,
    latencyMs: receipt.latencyMs,
    missingInputs: receipt.missingInputs,
    outcome: receipt.outcome,
    quoteIntentId: receipt.quoteIntentId,
    requestCorrelationId: receipt.requestCorrelationId,
    signature: receipt.signatureKid && receipt.signature ? { alg: 'Ed25519', kid: receipt.signatureKid, value: receipt.signature } : null,
    source: receipt.source,
  };
}
