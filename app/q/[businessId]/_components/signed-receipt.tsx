'use client';

import { downloadReceipt, useReceiptSignatureCheck } from '@/app/_components/receipt-signature-check';
import type { QuoteReceiptView } from '@/lib/quotes/schemas';

/**
 * The customer's proof of the price: the receipt is signed, this browser checked it against the
 * published keys, and the signed file can be kept (and checked again by anyone, docs/receipts.md).
 */
export function SignedReceipt({ receipt }: { receipt: QuoteReceiptView }) {
  const check = useReceiptSignatureCheck(receipt);
  if (!receipt.signature) return null;
  return (
    <div className="quote-proof">
      <p className="quote-proof-status" role="status" data-state={check.state}>
        {check.state === 'checking' && 'Checking the price’s signature…'}
        {check.state === 'verified' && (
          <>
            <span aria-hidden="true">✓ </span>Signed price: checked in your browser against the published key <code>{check.key.kid}</code>.
          </>
        )}
        {check.state === 'failed' && `This receipt’s signature did not check out: ${check.reason}`}
        {check.state === 'unavailable' && `Signed price. ${check.reason} You can still download the receipt and check it later.`}
      </p>
      <button type="button" onClick={() => downloadReceipt(receipt)}>
        Download receipt
      </button>
    </div>
  );
}
