import type { ApiKeyPrincipal, SessionPrincipal } from '../auth/principal';
import { compiled } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import type { QuoteInputs } from '../pricing';
import { checkSignature, describeSignatureCheck, keyRingOf } from '../receipts/receipt-signature';
import { receiptSigningKeySet } from '../receipts/signing-keys';
import { findInspectableQuote } from './quote-access';
import { toQuoteResult } from './quote-views';
import { recompute, type Recomputation } from './recompute';
import type { QuoteVerification } from './schemas';

/**
 * The recompute proof of one quote: its receipt's signature checked against the published keys,
 * and its stored inputs priced again against its pinned book version by today's engine. Either
 * the result is identical to the receipt (the same digest), or the answer names where they part.
 */
export async function verifyQuote(ctx: VerbContext<SessionPrincipal | ApiKeyPrincipal>, { id }: { id: string }): Promise<QuoteVerification> {
  const stored = await findInspectableQuote(ctx, id);
  const receipt = toQuoteResult(stored.intent, stored.receipt).quoteReceipt;
  const check = checkSignature(receipt, keyRingOf(await receiptSigningKeySet(ctx)));
  const versionId = stored.receipt.bookVersionId;
  const recomputation = recompute(versionId ? await compiled(ctx.db, versionId) : null, stored.intent.inputs as QuoteInputs, receipt);
  return {
    quoteIntentId: stored.intent.id,
    quoteReceiptId: stored.receipt.id,
    bookVersionId: versionId,
    verified: check.status === 'verified' && recomputation.identical,
    signature: { status: check.status, kid: 'kid' in check ? check.kid : null, message: describeSignatureCheck(check) },
    recomputation: { ...recomputation, message: describeRecomputation(recomputation) },
  };
}

export function describeRecomputation(recomputation: Recomputation): string {
  if (recomputation.identical) return 'Priced again from its stored inputs and pinned book version, the quote comes out identical to its receipt.';
  const where = recomputation.firstDifference;
  return where?.sequence !== null && where?.sequence !== undefined
    ? `Priced again, the quote parts from its receipt at derivation step ${where.sequence} (${where.path}).`
    : `Priced again, the quote differs from its receipt at ${where?.path || 'the outcome'}.`;
}
