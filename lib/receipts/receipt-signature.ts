import sodium from 'sodium-native';
import { canonicalJson } from '../hash/canonical-json';
import type { ReceiptSignature, ReceiptSigningJwk } from './schemas';

/**
 * Signed receipts (docs/receipts.md): Ed25519 over the RFC 8785 canonical JSON of the receipt
 * exactly as the API returns it, without its `signature` field. Pure: no database, no network,
 * so that the service, the CLIs and anyone's own code verify alike.
 *
 * libsodium signs and verifies (sodium-native): on these machines its Ed25519 takes ~30 µs to
 * sign and ~60 µs to verify against node:crypto's ~47 and ~140 (bench/cases/receipts.ts), and
 * signing is on every quote's path. Ed25519 is deterministic, so the signatures are the very
 * bytes node:crypto, WebCrypto or any RFC 8032 library would make and check.
 */

export const RECEIPT_SIGNATURE_ALG = 'Ed25519';

/** A signed document: a quote receipt, or the account surface's produced quote. */
export type SignedDocument = Record<string, unknown> & { signature?: ReceiptSignature | null };

/** The bytes a signature covers: the canonical JSON of the document without `signature`. */
export function signingInput(document: SignedDocument): Buffer {
  const { signature: _signature, ...signed } = document;
  return Buffer.from(canonicalJson(signed), 'utf8');
}

/** Who signs: the current key's id and its private half, libsodium's 64 bytes (seed, public key). */
export type ReceiptSigner = { kid: string; secretKey: Buffer };

/** A signer from the key's 32-byte seed (what RFC 8032 calls the private key). */
export function signerFromSeed(kid: string, seed: Buffer): ReceiptSigner {
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, seed);
  return { kid, secretKey };
}

export function signDocument(signer: ReceiptSigner, document: SignedDocument): ReceiptSignature {
  const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
  sodium.crypto_sign_detached(signature, signingInput(document), signer.secretKey);
  return { alg: RECEIPT_SIGNATURE_ALG, kid: signer.kid, value: signature.toString('base64url') };
}

/** The public keys a verifier trusts, by kid (from a JWK Set): the raw 32 bytes of each. */
export type ReceiptKeyRing = Map<string, { publicKey: Buffer; jwk: ReceiptSigningJwk }>;

export function keyRingOf(jwks: { keys: ReceiptSigningJwk[] }): ReceiptKeyRing {
  const ring: ReceiptKeyRing = new Map();
  for (const jwk of jwks.keys) {
    const publicKey = Buffer.from(jwk.x, 'base64url');
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || publicKey.length !== sodium.crypto_sign_PUBLICKEYBYTES) continue;
    ring.set(jwk.kid, { jwk, publicKey });
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
  const valid = value.length === sodium.crypto_sign_BYTES && sodium.crypto_sign_verify_detached(value, signingInput(document), known.publicKey);
  return valid ? { status: 'verified', kid: signature.kid } : { status: 'bad_signature', kid: signature.kid };
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
