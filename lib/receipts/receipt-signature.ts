import { createPublicKey, sign, verify, webcrypto, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../hash/canonical-json';
import type { ReceiptSignature, ReceiptSigningJwk } from './schemas';

/**
 * Signed receipts (docs/receipts.md): Ed25519 over the RFC 8785 canonical JSON of the receipt
 * exactly as the API returns it, without its `signature` field. Pure: no database, no network,
 * so that the service, the CLIs and anyone's own code verify alike.
 */

export const RECEIPT_SIGNATURE_ALG = 'Ed25519';

/** A signed document: a quote receipt, or the account surface's produced quote. */
export type SignedDocument = Record<string, unknown> & { signature?: ReceiptSignature | null };

/** The bytes a signature covers: the canonical JSON of the document without `signature`. */
export function signingInput(document: SignedDocument): Buffer {
  const { signature: _signature, ...signed } = document;
  return Buffer.from(canonicalJson(signed), 'utf8');
}

/** Who signs: the current key's id and its private half (never leaves the process). */
export type ReceiptSigner = { kid: string; privateKey: KeyObject };

export function signDocument(signer: ReceiptSigner, document: SignedDocument): ReceiptSignature {
  return { alg: RECEIPT_SIGNATURE_ALG, kid: signer.kid, value: sign(null, signingInput(document), signer.privateKey).toString('base64url') };
}

/** The public keys a verifier trusts, by kid (from a JWK Set); `cryptoKey` once checkSignatures needed it. */
export type ReceiptKeyRing = Map<string, { key: KeyObject; jwk: ReceiptSigningJwk; cryptoKey?: Promise<webcrypto.CryptoKey> }>;

export function keyRingOf(jwks: { keys: ReceiptSigningJwk[] }): ReceiptKeyRing {
  const ring: ReceiptKeyRing = new Map();
  for (const jwk of jwks.keys) {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') continue;
    ring.set(jwk.kid, { jwk, key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }) });
  }
  return ring;
}

export type SignatureCheck =
  | { status: 'verified'; kid: string }
  /** Written before receipts were signed: not evidence of tampering, and not a verified receipt. */
  | { status: 'unsigned' }
  | { status: 'unknown_kid'; kid: string }
  | { status: 'unsupported_alg'; alg: string }
  | { status: 'bad_signature'; kid: string };

/** Checks a document's signature against the trusted keys. */
export function checkSignature(document: SignedDocument, ring: ReceiptKeyRing): SignatureCheck {
  const signature = document.signature;
  if (signature === undefined || signature === null) return { status: 'unsigned' };
  if (signature.alg !== RECEIPT_SIGNATURE_ALG) return { status: 'unsupported_alg', alg: String(signature.alg) };
  const known = ring.get(signature.kid);
  if (!known) return { status: 'unknown_kid', kid: signature.kid };
  const value = Buffer.from(signature.value, 'base64url');
  const valid = value.length === 64 && verify(null, signingInput(document), known.key, value);
  return valid ? { status: 'verified', kid: signature.kid } : { status: 'bad_signature', kid: signature.kid };
}

/**
 * checkSignature for many documents at once: the Ed25519 verifications (the costly part, ~140 µs
 * each) run on libuv's thread pool through WebCrypto, so that an audit uses every core.
 */
export async function checkSignatures(documents: SignedDocument[], ring: ReceiptKeyRing): Promise<SignatureCheck[]> {
  return Promise.all(
    documents.map(async (document): Promise<SignatureCheck> => {
      const signature = document.signature;
      if (signature === undefined || signature === null) return { status: 'unsigned' };
      if (signature.alg !== RECEIPT_SIGNATURE_ALG) return { status: 'unsupported_alg', alg: String(signature.alg) };
      const known = ring.get(signature.kid);
      if (!known) return { status: 'unknown_kid', kid: signature.kid };
      known.cryptoKey ??= webcrypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: known.jwk.x }, { name: 'Ed25519' }, false, ['verify']);
      const value = Buffer.from(signature.value, 'base64url');
      const valid = value.length === 64 && (await webcrypto.subtle.verify('Ed25519', await known.cryptoKey, value, signingInput(document)));
      return valid ? { status: 'verified', kid: signature.kid } : { status: 'bad_signature', kid: signature.kid };
    }),
  );
}

/** One sentence per outcome of a check, for people (CLI, portal). */
export function describeSignatureCheck(check: SignatureCheck): string {
  switch (check.status) {
    case 'verified':
      return `The signature is valid (key ${check.kid}).`;
    case 'unsigned':
      return 'The receipt carries no signature: it was written before receipts were signed.';
    case 'unknown_kid':
      return `The receipt is signed with key "${check.kid}", which is not in the published key set.`;
    case 'unsupported_alg':
      return `The signature's algorithm is "${check.alg}"; receipts are signed with ${RECEIPT_SIGNATURE_ALG}.`;
    case 'bad_signature':
      return `The signature (key ${check.kid}) does not match the receipt: a field was altered after signing, or the signature is not of this receipt.`;
  }
}

/**
 * Fields of a quote receipt that contradict each other: what an alteration that broke the
 * signature most likely changed. A genuine receipt has none (a property test proves it).
 */
export function receiptInconsistencies(receipt: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const computation = receipt.computation as
    | {
        totalMinor?: unknown;
        lineItems?: { amountMinor?: unknown }[];
        derivation?: { runningTotalMinor?: unknown }[];
        paymentTerms?: { depositMinor?: unknown; balanceDueMinor?: unknown };
      }
    | null
    | undefined;
  const outcome = receipt.outcome;
  if (outcome === 'succeeded' && !computation) problems.push('outcome is "succeeded" but computation is empty');
  if (outcome !== 'succeeded' && computation) problems.push(`outcome is "${String(outcome)}" but the receipt has a computation`);
  if (outcome === 'failed' && !receipt.failure) problems.push('outcome is "failed" but failure is empty');
  if (outcome === 'requires_input' && !(Array.isArray(receipt.missingInputs) && receipt.missingInputs.length > 0)) {
    problems.push('outcome is "requires_input" but missingInputs is empty');
  }
  if (!computation || typeof computation !== 'object') return problems;
  const total = computation.totalMinor;
  const sum = (values: unknown[]) => values.reduce<number>((acc, v) => acc + (typeof v === 'number' ? v : NaN), 0);
  if (Array.isArray(computation.lineItems)) {
    const lineSum = sum(computation.lineItems.map((item) => item?.amountMinor));
    if (lineSum !== total) problems.push(`computation.totalMinor (${String(total)}) is not the sum of the line items (${lineSum})`);
  }
  const last = Array.isArray(computation.derivation) ? computation.derivation.at(-1) : undefined;
  if (last && last.runningTotalMinor !== total) {
    problems.push(`computation.totalMinor (${String(total)}) is not the derivation's final running total (${String(last.runningTotalMinor)})`);
  }
  const terms = computation.paymentTerms;
  if (terms && sum([terms.depositMinor, terms.balanceDueMinor]) !== total) {
    problems.push(`the deposit (${String(terms.depositMinor)}) and balance (${String(terms.balanceDueMinor)}) do not add up to computation.totalMinor (${String(total)})`);
  }
  return problems;
}
