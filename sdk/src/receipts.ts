import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { checkReceiptAssignment, type AssignmentDefinition, type DocumentWithExperiment, type ExperimentCheck } from './experiments.js';

/** One of the service's receipt signing keys, as GET /v1/receipt-signing-keys lists it (a JWK, RFC 8037). */
export type ReceiptSigningKey = { kty: string; crv: string; x: string; kid: string; alg?: string; use?: string; activeFrom?: string; activeUntil?: string | null };
export type ReceiptKeySet = { keys: ReceiptSigningKey[] };

/** Where keys come from when a receipt names one the verifier has not seen: the service, fetched again. */
export type KeySetSource = { get(): Promise<ReceiptKeySet>; refresh(): Promise<ReceiptKeySet> };

/** A signed document: a quote receipt, or the account surface's produced quote. */
export type SignedDocument = Record<string, unknown> & { signature?: { alg: string; kid: string; value: string } | null };

export type ReceiptCheck =
  | { status: 'verified'; kid: string }
  /** Written before the service signed receipts: not evidence of tampering, and not verified either. */
  | { status: 'unsigned' }
  | { status: 'unknown_kid'; kid: string }
  | { status: 'unsupported_alg'; alg: string }
  | { status: 'bad_signature'; kid: string };

/** A key set fetched once and kept, fetched again on `refresh` (at most one fetch at a time). */
export function cachedKeySet(fetchKeySet: () => Promise<ReceiptKeySet>): KeySetSource {
  let current: Promise<ReceiptKeySet> | undefined;
  const refresh = () => {
    current = fetchKeySet().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };
  return { get: () => current ?? refresh(), refresh };
}

/**
 * What else to check: the experiment arm a format-2 receipt records, recomputed from the
 * experiment's published definition (`GET /v1/books/{bookId}/experiments/{id}`: its `id`, `salt`
 * and `arms`) and the subject the quote was asked for (`Quote-Subject`, else its idempotency key).
 */
export type VerifyReceiptOptions = { experiment: AssignmentDefinition; subject: string };

/** The signature's check, and the arm's: `experiment.status` is `matches` when the receipt's arm is the one the definition gives the subject. */
export type ReceiptCheckWithExperiment = ReceiptCheck & { experiment: ExperimentCheck };

/**
 * Verifies a receipt offline: Ed25519 over the RFC 8785 canonical JSON of the document without
 * its `signature` (docs/receipts.md). Give it a key set (a file you keep) or a source such as
 * `client.receiptKeys`, which is asked again once when the receipt names a key it does not know.
 * With `{ experiment, subject }` it also recomputes the receipt's experiment arm; trust that
 * answer only when `status` is `verified` (the arm is part of what is signed).
 */
export async function verifyReceipt(document: SignedDocument, keys: ReceiptKeySet | KeySetSource): Promise<ReceiptCheck>;
export async function verifyReceipt(document: SignedDocument, keys: ReceiptKeySet | KeySetSource, options: VerifyReceiptOptions): Promise<ReceiptCheckWithExperiment>;
export async function verifyReceipt(
  document: SignedDocument,
  keys: ReceiptKeySet | KeySetSource,
  options?: VerifyReceiptOptions,
): Promise<ReceiptCheck | ReceiptCheckWithExperiment> {
  const check = await verifySignatureOf(document, keys);
  if (!options) return check;
  const experiment = checkReceiptAssignment(document as DocumentWithExperiment, options.experiment, options.subject);
  return { ...check, experiment };
}

async function verifySignatureOf(document: SignedDocument, keys: ReceiptKeySet | KeySetSource): Promise<ReceiptCheck> {
  const signature = document.signature;
  if (signature === undefined || signature === null) return { status: 'unsigned' };
  if (signature.alg !== 'Ed25519') return { status: 'unsupported_alg', alg: String(signature.alg) };
  const source = 'keys' in keys ? null : keys;
  let key = findKey(source ? await source.get() : (keys as ReceiptKeySet), signature.kid);
  if (!key && source) key = findKey(await source.refresh(), signature.kid);
  if (!key) return { status: 'unknown_kid', kid: signature.kid };
  const { signature: _signature, ...signed } = document;
  const input = Buffer.from(canonicalJson(signed), 'utf8');
  const value = Buffer.from(signature.value, 'base64url');
  const valid = value.length === 64 && verifySignature(null, input, key, value);
  return valid ? { status: 'verified', kid: signature.kid } : { status: 'bad_signature', kid: signature.kid };
}

function findKey(set: ReceiptKeySet, kid: string): KeyObject | null {
  const jwk = set.keys.find((candidate) => candidate.kid === kid);
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}
