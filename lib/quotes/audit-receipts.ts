import { compiled } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import type { CompiledBook, QuoteInputs } from '../pricing';
import { checkSignature, keyRingOf, type SignatureCheck } from '../receipts/receipt-signature';
import { receiptSigningKeySet } from '../receipts/signing-keys';
import { toReceiptView } from './quote-views';
import { recomputesIdentically } from './recompute';
import { countReceipts, readReceiptsInBatches, type AuditFilter } from './store';

export type AuditFailure = { quoteIntentId: string; receiptId: string; signature: SignatureCheck['status']; recomputedIdentically: boolean };

export type AuditTally = {
  total: number;
  checked: number;
  /** Signature valid and recomputation identical. */
  verified: number;
  /** Written before receipts were signed (recomputed all the same). */
  unsigned: number;
  /** Signature invalid, or by a key not in the published set, or of another algorithm. */
  badSignature: number;
  /** Recomputation not identical to the receipt. */
  differs: number;
  /** The first failures, to look at (`POST /v1/quote-intents/{id}/verification` says where). */
  failures: AuditFailure[];
};

const KEPT_FAILURES = 20;
const BATCH = 1000;

/**
 * `npm run audit-receipts`: every receipt in range, its signature checked against the published
 * keys and its price recomputed from its stored inputs and pinned version. Streams the receipts
 * (a cursor, batches of 1,000); `onProgress` runs after each batch.
 */
export async function auditReceipts(ctx: Pick<VerbContext, 'db'>, filter: AuditFilter, onProgress?: (tally: AuditTally) => void): Promise<AuditTally> {
  const { db } = ctx;
  const ring = keyRingOf(await receiptSigningKeySet(ctx));
  const tally: AuditTally = { total: await countReceipts(db, filter), checked: 0, verified: 0, unsigned: 0, badSignature: 0, differs: 0, failures: [] };
  const books = new Map<string, CompiledBook>();
  await readReceiptsInBatches(db, filter, BATCH, async (rows) => {
    for (const row of rows) {
      const versionId = row.bookVersionId;
      if (versionId && !books.has(versionId)) books.set(versionId, await compiled(db, versionId));
    }
    for (const row of rows) {
      const receipt = toReceiptView(row);
      const identical = recomputesIdentically(row.bookVersionId ? books.get(row.bookVersionId)! : null, row.inputs as QuoteInputs, receipt);
      tallyOne(tally, row, checkSignature(receipt, ring).status, identical);
    }
    onProgress?.(tally);
  });
  return tally;
}

function tallyOne(tally: AuditTally, row: { id: string; quoteIntentId: string }, signature: SignatureCheck['status'], identical: boolean) {
  tally.checked++;
  if (signature === 'unsigned') tally.unsigned++;
  else if (signature !== 'verified') tally.badSignature++;
  if (!identical) tally.differs++;
  if (signature === 'verified' && identical) tally.verified++;
  else if (tally.failures.length < KEPT_FAILURES && (signature !== 'unsigned' || !identical)) {
    tally.failures.push({ quoteIntentId: row.quoteIntentId, receiptId: row.id, signature, recomputedIdentically: identical });
  }
}

/** Whether an audit found anything wrong (unsigned receipts alone are not wrong: they predate signing). */
export function auditFailed(tally: AuditTally): boolean {
  return tally.badSignature > 0 || tally.differs > 0;
}
