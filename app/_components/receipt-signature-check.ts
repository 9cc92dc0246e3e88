'use client';

import { useEffect, useState } from 'react';
import { canonicalJson } from '@/lib/hash/canonical-json';
import type { ReceiptSignature, ReceiptSigningJwk } from '@/lib/receipts/schemas';

/**
 * A receipt's signature checked in the browser, as anyone could: the published key set fetched
 * from GET /v1/receipt-signing-keys and Ed25519 verified with WebCrypto over the receipt's
 * canonical JSON (docs/receipts.md). Nothing is taken on the service's word but the keys.
 */
export type BrowserSignatureCheck =
  | { state: 'checking' }
  | { state: 'verified'; key: ReceiptSigningJwk }
  | { state: 'unsigned' }
  | { state: 'failed'; reason: string }
  /** This browser's WebCrypto has no Ed25519, or the keys could not be fetched. */
  | { state: 'unavailable'; reason: string };

type SignedReceipt = Record<string, unknown> & { signature: ReceiptSignature | null };

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export async function checkReceiptInBrowser(receipt: SignedReceipt): Promise<BrowserSignatureCheck> {
  const { signature, ...signed } = receipt;
  if (!signature) return { state: 'unsigned' };
  let keys: ReceiptSigningJwk[];
  try {
    const response = await fetch('/v1/receipt-signing-keys');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    keys = ((await response.json()) as { keys: ReceiptSigningJwk[] }).keys;
  } catch {
    return { state: 'unavailable', reason: 'The signing keys could not be fetched.' };
  }
  const jwk = keys.find((key) => key.kid === signature.kid);
  if (!jwk) return { state: 'failed', reason: `It names a signing key (${signature.kid}) that is not published.` };
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return { state: 'unavailable', reason: 'This browser cannot check Ed25519 signatures.' };
  }
  const valid = await crypto.subtle.verify('Ed25519', key, fromBase64Url(signature.value), new TextEncoder().encode(canonicalJson(signed)));
  return valid ? { state: 'verified', key: jwk } : { state: 'failed', reason: 'The signature does not match this receipt.' };
}

export function useReceiptSignatureCheck(receipt: SignedReceipt): BrowserSignatureCheck {
  const [check, setCheck] = useState<BrowserSignatureCheck>({ state: 'checking' });
  useEffect(() => {
    let current = true;
    setCheck({ state: 'checking' });
    checkReceiptInBrowser(receipt).then(
      (result) => current && setCheck(result),
      () => current && setCheck({ state: 'unavailable', reason: 'The signature could not be checked.' }),
    );
    return () => {
      current = false;
    };
  }, [receipt]);
  return check;
}

/**
 * Saves the receipt as a file: the signed JSON exactly as the service answered it, named by the
 * quote reference the page shows (`quote-<reference>-signed-receipt.json`).
 */
export function downloadReceipt(receipt: SignedReceipt): void {
  const href = URL.createObjectURL(new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = `quote-${String(receipt.quoteIntentId ?? receipt.id)}-signed-receipt.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
