// `npm run verify-receipt -- <receipt.json>… [--keys <jwks.json | https://…/v1/receipt-signing-keys>]
//   [--experiment <definition.json> --subject <subject>]`
// Verifies signed receipts offline: no database, and no network when --keys names a file. A file
// may hold a receipt, a quote ({ quoteIntent, quoteReceipt }), an API answer ({ data: … }), a
// webhook payload or an account-surface quote. Exit 0 when every receipt verifies, 1 when one
// does not (forged, altered or signed by an unknown key), 3 when one is unsigned (older than
// signing), 2 on bad usage. docs/receipts.md.
// With --experiment (GET /v1/books/{bookId}/experiments/{id} as saved) and --subject, it also
// recomputes the arm each receipt records from the definition and the subject, offline, and fails
// (1) when it differs: docs/experiments.md, "Assignment and the receipt".
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  checkSignature,
  describeSignatureCheck,
  keyRingOf,
  receiptInconsistencies,
  type SignedDocument,
} from '../lib/receipts/receipt-signature';
import { receiptSigningKeySetSchema, type ReceiptSigningKeySet } from '../lib/receipts/schemas';
import { checkReceiptAssignment, isValidSplit, type AssignmentDefinition, type DocumentWithExperiment } from '../lib/experiments/assignment';

const usage =
  'usage: npm run verify-receipt -- <receipt.json>… [--keys <jwks.json | URL>] [--experiment <definition.json> --subject <subject>]  (default URL: http://localhost:$PORT/v1/receipt-signing-keys)';

class UsageError extends Error {}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { keys: { type: 'string' }, experiment: { type: 'string' }, subject: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  const { positionals, values } = parsed;
  if (values.help || positionals.length === 0) throw new UsageError(usage);
  if ((values.experiment === undefined) !== (values.subject === undefined)) throw new UsageError(`--experiment and --subject go together.\n${usage}`);
  const experiment = values.experiment === undefined ? null : definitionIn(readJson(values.experiment), values.experiment);
  const keySet = await loadKeySet(values.keys ?? `http://localhost:${process.env.PORT ?? 3000}/v1/receipt-signing-keys`);
  const ring = keyRingOf(keySet);
  let failed = false;
  let unsigned = false;
  for (const file of positionals) {
    const document = signedDocumentIn(readJson(file), file);
    const label = `${file}: ${'quoteIntentId' in document ? `receipt ${String(document.id)}` : `quote ${String(document.quote_id ?? document.id)}`}`;
    const check = checkSignature(document, ring);
    if (experiment && !assignmentHolds(label, document, experiment, values.subject!)) failed = true;
    if (check.status === 'verified') {
      const key = ring.get(check.kid)!.jwk;
      console.log(`✓ ${label}: verified, signed by ${check.kid} (signing from ${key.activeFrom}${key.activeUntil ? ` until ${key.activeUntil}` : ', current'}).`);
      continue;
    }
    console.log(`${check.status === 'unsigned' ? '–' : '✗'} ${label}: ${check.status.replaceAll('_', ' ')}. ${describeSignatureCheck(check)}`);
    if (check.status === 'unknown_kid') console.log('  If the key is new, fetch the key set again (--keys https://<service>/v1/receipt-signing-keys).');
    if (check.status === 'unsigned') {
      const firstKey = keySet.keys.map((key) => key.activeFrom).sort()[0];
      const created = String(document.createdAt ?? document.created ?? '');
      if (firstKey && created > firstKey) {
        console.log(`  Note: it is dated ${created}, after receipts began to be signed (${firstKey}). Unless an instance of an older version wrote it during an upgrade, its signature was removed.`);
      }
    }
    if (check.status === 'bad_signature' && 'quoteIntentId' in document) {
      for (const problem of receiptInconsistencies(document)) console.log(`  altered field: ${problem}`);
    }
    if (check.status === 'unsigned') unsigned = true;
    else failed = true;
  }
  return failed ? 1 : unsigned ? 3 : 0;
}

/** Recomputes the receipt's arm from the definition and the subject; prints what it found. */
function assignmentHolds(label: string, document: SignedDocument, definition: AssignmentDefinition, subject: string): boolean {
  const check = checkReceiptAssignment(document as DocumentWithExperiment, definition, subject);
  switch (check.status) {
    case 'matches':
      console.log(`✓ ${label}: arm "${check.arm}" (bucket ${check.bucket}) of experiment ${definition.id} recomputes from the definition and the subject.`);
      return true;
    case 'no_experiment':
      console.log(`✗ ${label}: records no experiment (priced outside one, or a receipt older than format 2).`);
      return false;
    case 'other_experiment':
      console.log(`✗ ${label}: records experiment ${check.experimentId}, not ${definition.id}.`);
      return false;
    case 'other_subject':
      console.log(`✗ ${label}: the subject's sha256 is not the subjectDigest the receipt records: it was assigned for another subject.`);
      return false;
    case 'mismatch':
      console.log(`✗ ${label}: records arm "${check.recorded.arm}" (bucket ${check.recorded.bucket}); the definition and subject give "${check.expected.arm}" (bucket ${check.expected.bucket}).`);
      return false;
  }
}

/** The experiment's definition in what a person saved: the GET answer, `{ experiment }` or the experiment. */
function definitionIn(value: unknown, file: string): AssignmentDefinition {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (let inner = value; isObject(inner); inner = inner.data) {
    const candidate = isObject(inner.experiment) ? inner.experiment : inner;
    const arms = candidate.arms;
    if (typeof candidate.id === 'string' && typeof candidate.salt === 'string' && Array.isArray(arms)) {
      const split = arms.map((arm) => {
        const { name, basisPoints, pausedAt } = arm as { name?: unknown; basisPoints?: unknown; pausedAt?: unknown };
        // An arm a guardrail paused: receipts made from then on name the control (docs/experiments.md, "Guardrails").
        return { name: String(name), basisPoints: Number(basisPoints), ...(typeof pausedAt === 'string' ? { pausedAt } : {}) };
      });
      if (!isValidSplit(split)) throw new UsageError(`${file}: the experiment's arms do not split 10,000 basis points.`);
      return { id: candidate.id, salt: candidate.salt, arms: split };
    }
  }
  throw new UsageError(`${file} holds no experiment definition: expected GET /v1/books/{bookId}/experiments/{id}'s answer (id, salt, arms).`);
}

async function loadKeySet(source: string): Promise<ReceiptSigningKeySet> {
  let raw: unknown;
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source).catch((error: Error) => {
      throw new UsageError(`Cannot fetch the key set from ${source}: ${error.message}. Is the service running? Or pass --keys <jwks.json>.`);
    });
    if (!res.ok) throw new UsageError(`Cannot fetch the key set from ${source}: HTTP ${res.status}.`);
    raw = await res.json();
  } else {
    raw = readJson(source);
  }
  const parsed = receiptSigningKeySetSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`${source} is not a receipt signing key set (a JWK Set from GET /v1/receipt-signing-keys).`);
  return parsed.data;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not JSON.`);
  }
}

/** The signed object in what a person saved: the receipt itself, or something that holds it. */
function signedDocumentIn(value: unknown, file: string): SignedDocument {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (let inner = value; isObject(inner); ) {
    // A receipt (a file saved before receipts were signed has no `signature`: it reads as unsigned).
    if ('quoteIntentId' in inner && 'outcome' in inner) return inner as SignedDocument;
    if (inner.object === 'quote' && 'quote_id' in inner) return inner as SignedDocument;
    if (isObject(inner.quoteReceipt)) return inner.quoteReceipt as SignedDocument;
    if (isObject(inner.quote) && inner.quote.object === 'quote') return inner.quote as SignedDocument;
    inner = inner.data;
  }
  throw new UsageError(`${file} holds no receipt: expected a quote receipt (with "signature"), a quote or an API answer holding one.`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
