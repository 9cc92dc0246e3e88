import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignature, keyRingOf, receiptInconsistencies, signDocument, signerFromSeed, signingInput } from './receipt-signature';

const receipt = {
  id: '8c0e6bd6-2b8c-4a4a-9b7e-0d1e2f3a4b5c',
  outcome: 'succeeded',
  computation: { totalMinor: 150, lineItems: [{ amountMinor: 120 }, { amountMinor: 30 }], derivation: [{ runningTotalMinor: 150 }], paymentTerms: { depositMinor: 50, balanceDueMinor: 100 } },
  missingInputs: [],
  failure: null,
  note: 'Prix « spécial » — 😀',
};

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const jwk = { kty: 'OKP', crv: 'Ed25519', kid, use: 'sig', alg: 'EdDSA', x, activeFrom: '2026-11-26T00:00:00.000Z', activeUntil: null } as const;
  return { privateKey, publicKey, signer: signerFromSeed(kid, seed), jwk };
}

describe('receipt signatures', () => {
  it('are the very bytes node:crypto makes, and node:crypto verifies them (Ed25519 is deterministic)', () => {
    const { privateKey, publicKey, signer } = keyPair('rsk_test');
    const signature = signDocument(signer, receipt);
    expect(signature).toMatchObject({ alg: 'Ed25519', kid: 'rsk_test' });
    expect(signature.value).toBe(sign(null, signingInput(receipt), privateKey).toString('base64url'));
    expect(verify(null, signingInput({ ...receipt, signature }), createPublicKey({ key: publicKey.export({ format: 'jwk' }), format: 'jwk' }), Buffer.from(signature.value, 'base64url'))).toBe(true);
  });

  it('cover the canonical JSON without the signature: key order does not matter, content does', () => {
    const { signer, jwk } = keyPair('rsk_a');
    const ring = keyRingOf({ keys: [jwk] });
    const signed = { ...receipt, signature: signDocument(signer, receipt) };
    const reordered = Object.fromEntries(Object.entries(signed).reverse());
    expect(checkSignature(reordered, ring)).toEqual({ status: 'verified', kid: 'rsk_a' });
    expect(checkSignature({ ...signed, note: 'Prix spécial' }, ring)).toEqual({ status: 'bad_signature', kid: 'rsk_a' });
    // Another key's signature, or one that names a key not in the ring.
    const other = keyPair('rsk_a');
    expect(checkSignature({ ...receipt, signature: signDocument(other.signer, receipt) }, ring).status).toBe('bad_signature');
    expect(checkSignature({ ...receipt, signature: signDocument(keyPair('rsk_b').signer, receipt) }, ring)).toEqual({ status: 'unknown_kid', kid: 'rsk_b' });
    expect(checkSignature({ ...signed, signature: { ...signed.signature, alg: 'HS256' as never } }, ring)).toEqual({ status: 'unsupported_alg', alg: 'HS256' });
  });

  it('names the fields of an altered receipt that contradict each other, and none of a genuine one', () => {
    expect(receiptInconsistencies(receipt)).toEqual([]);
    const altered = structuredClone(receipt);
    altered.computation.totalMinor = 100;
    expect(receiptInconsistencies(altered)).toEqual([
      'computation.totalMinor (100) is not the sum of the line items (150)',
      "computation.totalMinor (100) is not the derivation's final running total (150)",
      'the deposit (50) and balance (100) do not add up to computation.totalMinor (100)',
    ]);
    expect(receiptInconsistencies({ ...receipt, outcome: 'failed' })).toEqual(['outcome is "failed" but the receipt has a computation', 'outcome is "failed" but failure is empty']);
  });
});
