'use client';

import { downloadReceipt, useReceiptSignatureCheck } from '@/app/_components/receipt-signature-check';
import type { QuoteResult } from './submit-public-quote';

/**
 * The customer's copy of the price: a page to print or keep as a PDF (the receipt as they see it,
 * with the business's name and the quote reference), and the signed file for software, which
 * anyone can check again (docs/receipts.md). The signature is told in plain words; the key that
 * signed it is on hover, for whoever wants to check it.
 */
export function SignedReceipt({ receipt, businessName }: { receipt: QuoteResult['quoteReceipt']; businessName: string }) {
  const check = useReceiptSignatureCheck(receipt);
  return (
    <div className="quote-proof">
      {receipt.signature && (
        <p className="quote-proof-status" role="status" data-state={check.state}>
          {check.state === 'checking' && 'Checking that this price is genuine…'}
          {check.state === 'verified' && (
            <span title={`Ed25519 signature, key ${check.key.kid}`}>
              <strong>
                <span aria-hidden="true">✓ </span>Genuine:
              </strong>{' '}
              this price carries {businessName}’s digital seal, checked in your browser, so the figures are
              exactly as issued.
            </span>
          )}
          {check.state === 'failed' && `This price’s digital seal did not check out (${check.reason}). Ask ${businessName} for a new price.`}
          {check.state === 'unavailable' && `This price carries a digital seal that this browser cannot check (${check.reason}). The saved file can be checked later.`}
        </p>
      )}
      <div className="quote-proof-actions">
        <button type="button" onClick={() => window.print()}>
          Print or save as PDF
        </button>
        {receipt.signature && (
          <button type="button" className="link-button" onClick={() => downloadReceipt(receipt)}>
            Signed file for software (JSON)
          </button>
        )}
      </div>
    </div>
  );
}
