'use client';

import { useMutation } from '@tanstack/react-query';
import { downloadReceipt, useReceiptSignatureCheck } from '@/app/_components/receipt-signature-check';
import type { AnswerOf } from '@/lib/http/contract';
import type { verifyQuoteContract } from '@/app/v1/quote-intents/contract';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage, formatTime } from '../../../_components/ui';
import type { QuoteTrace } from './use-quote-trace';

/**
 * Why this receipt can be trusted: its signature, checked here in the browser against the
 * published keys, and on demand the recompute proof (the service prices the stored inputs again
 * against the pinned version and compares with the receipt, POST /v1/quote-intents/{id}/verification).
 */
export function ReceiptProof({ trace }: { trace: QuoteTrace }) {
  const receipt = trace.quoteReceipt;
  const check = useReceiptSignatureCheck(receipt);
  const recompute = useMutation({
    mutationFn: () => apiFetch<typeof verifyQuoteContract>(`/v1/quote-intents/${trace.quoteIntent.id}/verification`, { method: 'POST' }),
    gcTime: 0,
  });
  return (
    <>
      <p role="status" aria-live="polite" data-testid="signature-status">
        {check.state === 'checking' && 'Checking the signature…'}
        {check.state === 'unsigned' && 'This receipt has no signature: it was written before receipts were signed.'}
        {check.state === 'verified' && (
          <>
            <strong>Signed.</strong> The signature checks out in this browser against key <code>{check.key.kid}</code>
            {check.key.activeUntil ? `, which signed receipts until ${formatTime(check.key.activeUntil)} and stays published.` : ', the key that signs receipts now.'}
          </>
        )}
        {check.state === 'failed' && <span className="error">The signature does not check out: {check.reason}</span>}
        {check.state === 'unavailable' && `The signature could not be checked here: ${check.reason}`}
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={() => recompute.mutate()} disabled={recompute.isPending}>
          {recompute.isPending ? 'Recomputing…' : 'Recompute'}
        </button>
        {receipt.signature && (
          <button type="button" onClick={() => downloadReceipt(receipt)}>
            Download receipt
          </button>
        )}
      </div>
      {recompute.isError && <ErrorMessage error={recompute.error} />}
      {recompute.data && <RecomputeResult verification={recompute.data} />}
    </>
  );
}

function RecomputeResult({ verification }: { verification: AnswerOf<typeof verifyQuoteContract> }) {
  const { recomputation, signature } = verification;
  const difference = recomputation.firstDifference;
  return (
    <div className={verification.verified ? 'success' : recomputation.identical ? 'warning' : 'error'} role="status" data-testid="recompute-result" style={{ marginTop: '0.75rem' }}>
      <p style={{ marginTop: 0 }}>
        <strong>{verification.verified ? 'Verified.' : recomputation.identical ? 'Recomputed identically.' : 'The recomputation differs.'}</strong> {recomputation.message}
      </p>
      <p>{signature.message}</p>
      <p className="muted" style={{ marginBottom: difference ? undefined : 0 }}>
        Digest of the receipt <code>{recomputation.storedDigest.slice(0, 16)}…</code>
        {recomputation.identical ? ' — the same for the recomputation.' : <>, of the recomputation <code>{recomputation.recomputedDigest.slice(0, 16)}…</code></>}
      </p>
      {difference && (
        <dl className="facts" style={{ marginBottom: 0 }}>
          <dt>Where they part</dt>
          <dd>
            <code>{difference.path}</code>
          </dd>
          <dt>The receipt says</dt>
          <dd>
            <pre className="mono">{JSON.stringify(difference.stored, null, 2)}</pre>
          </dd>
          <dt>Priced again</dt>
          <dd>
            <pre className="mono">{JSON.stringify(difference.recomputed, null, 2)}</pre>
          </dd>
        </dl>
      )}
    </div>
  );
}
