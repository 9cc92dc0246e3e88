'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { listReceiptSigningKeysContract } from '@/app/v1/receipt-signing-keys/contract';
import { unreachable } from '../../../_components/api';
import { ErrorMessage, formatTime, Loading } from '../../../_components/ui';

/** The keys that sign receipts: the current one first, the retired ones still published. */
export function ReceiptSigningKeys() {
  const keys = useQuery({
    queryKey: ['receipt-signing-keys'],
    queryFn: async () => {
      const response = await fetch('/v1/receipt-signing-keys').catch(() => {
        throw unreachable();
      });
      if (!response.ok) throw unreachable();
      // Not enveloped (a JWK Set as RFC 7517 has it): the body is the answer, which apiFetch does not read.
      return (await response.json()) as AnswerOf<typeof listReceiptSigningKeysContract>;
    },
  });
  const current = keys.data?.keys.find((key) => key.activeUntil === null);
  const retired = keys.data?.keys.filter((key) => key.activeUntil !== null).reverse() ?? [];
  return (
    <section className="card" aria-labelledby="receipt-keys-heading" style={{ marginTop: '1.5rem' }}>
      <h2 id="receipt-keys-heading" style={{ marginTop: 0 }}>
        Receipt signing keys
      </h2>
      <p className="muted">
        Every quote receipt is signed, so your systems and your customers can check a price without trusting our database. Fetch the public keys from{' '}
        <a href="/v1/receipt-signing-keys">/v1/receipt-signing-keys</a>; docs/receipts.md shows how to verify. Operators rotate with{' '}
        <code>npm run keys -- rotate-receipt-signing-key</code>.
      </p>
      {keys.isPending && <Loading what="signing keys" />}
      {keys.isError && <ErrorMessage error={keys.error} />}
      {keys.data && !current && <p>No receipt has been signed yet: the first quote makes the first key.</p>}
      {current && (
        <p data-testid="current-receipt-key">
          Signing now: <code>{current.kid}</code>, since {formatTime(current.activeFrom)}.
        </p>
      )}
      {retired.length > 0 && (
        <details>
          <summary>
            {retired.length} earlier {retired.length === 1 ? 'key' : 'keys'}, still published so the receipts they signed keep verifying
          </summary>
          <ul>
            {retired.map((key) => (
              <li key={key.kid}>
                <code>{key.kid}</code>: signed from {formatTime(key.activeFrom)} until {formatTime(key.activeUntil!)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
