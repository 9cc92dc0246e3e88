import { hash } from 'node:crypto';

/**
 * Experiment assignment: which arm of an experiment a subject is priced with. The one
 * implementation: the service imports it (lib/experiments/assignment.ts), the SDK and
 * `npm run verify-receipt` recompute a receipt's arm with it offline (docs/experiments.md,
 * "Assignment and the receipt"). Pure: the same definition and subject give the same arm,
 * in any process, forever.
 *
 *   subjectDigest = hex(sha256(utf8(subject)))
 *   bucket        = uint64_be(first 8 bytes of HMAC-SHA256(key = utf8(salt), utf8(experimentId + ':' + subjectDigest))) mod 10000
 *   arm           = the first arm, in the definition's order, whose cumulative basis points exceed the bucket
 *                   — or the first arm (the control) when that arm carries `pausedAt` and the quote
 *                   was made at or after it (a guardrail paused it; earlier quotes keep the arm)
 */

/** Buckets a subject can fall in: weights are basis points of this. */
export const ASSIGNMENT_BUCKETS = 10_000;

/**
 * An arm as the experiment's published definition lists it (control first). `pausedAt` (ISO
 * 8601): from this instant on, the subjects the arm's buckets hold are priced with the control.
 */
export type AssignmentArm = { name: string; basisPoints: number; pausedAt?: string | null };

/** What assignment needs of an experiment: GET /v1/books/{bookId}/experiments/{id} answers it. */
export type AssignmentDefinition = { id: string; salt: string; arms: readonly AssignmentArm[] };

export type Assignment = { arm: string; bucket: number; subjectDigest: string };

/** sha256 (hex) of the subject's UTF-8: what a receipt names the subject by; the subject itself is never stored. */
export function subjectDigestOf(subject: string): string {
  return hash('sha256', subject, 'hex');
}

/** The subject's bucket, 0–9999, in one experiment. */
export function assignmentBucket(experimentId: string, salt: string, subjectDigest: string): number {
  const mac = hmacSha256(salt, Buffer.from(`${experimentId}:${subjectDigest}`, 'utf8'));
  return Number(mac.readBigUInt64BE(0) % BigInt(ASSIGNMENT_BUCKETS));
}

const SHA256_BLOCK = 64;
/** The key's inner and outer pads by salt (an experiment's salt does not change; few run at once). */
const padsBySalt = new Map<string, { inner: Buffer; outer: Buffer }>();

/**
 * HMAC-SHA256 (RFC 2104) of `message` keyed by the salt's UTF-8, byte for byte what
 * `createHmac('sha256', salt)` gives, from two one-shot hashes over pads computed once per salt:
 * createHmac's objects cost the service's quote path some 20 µs a quote where these cost a few.
 */
function hmacSha256(salt: string, message: Buffer): Buffer {
  let pads = padsBySalt.get(salt);
  if (!pads) {
    let key = Buffer.from(salt, 'utf8');
    if (key.length > SHA256_BLOCK) key = hash('sha256', key, 'buffer');
    const inner = Buffer.alloc(SHA256_BLOCK, 0x36);
    const outer = Buffer.alloc(SHA256_BLOCK, 0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i] ^= key[i];
      outer[i] ^= key[i];
    }
    if (padsBySalt.size >= 256) padsBySalt.clear();
    padsBySalt.set(salt, (pads = { inner, outer }));
  }
  const innerHash = hash('sha256', Buffer.concat([pads.inner, message]), 'buffer');
  return hash('sha256', Buffer.concat([pads.outer, innerHash]), 'buffer');
}

/** The arm a bucket falls in, by cumulative basis points in the arms' order. */
export function armOfBucket(arms: readonly AssignmentArm[], bucket: number): string {
  let cumulative = 0;
  for (const arm of arms) {
    cumulative += arm.basisPoints;
    if (bucket < cumulative) return arm.name;
  }
  throw new Error(`the arms' basis points sum to ${cumulative}, not ${ASSIGNMENT_BUCKETS}`);
}

/** Whether arms are a valid split: integers ≥ 0 summing to 10,000, with distinct names. */
export function isValidSplit(arms: readonly AssignmentArm[]): boolean {
  const names = new Set(arms.map((arm) => arm.name));
  return (
    arms.length > 0 &&
    names.size === arms.length &&
    arms.every((arm) => Number.isInteger(arm.basisPoints) && arm.basisPoints >= 0) &&
    arms.reduce((sum, arm) => sum + arm.basisPoints, 0) === ASSIGNMENT_BUCKETS
  );
}

/**
 * The arm of a subject (or of its digest) in an experiment, for a quote made `at` (an ISO 8601
 * string or a Date; now when omitted): an arm paused by then gives way to the first arm.
 */
export function assignArm(
  definition: AssignmentDefinition,
  subject: { subject: string } | { subjectDigest: string },
  options: { at?: Date | string } = {},
): Assignment {
  if (!isValidSplit(definition.arms)) throw new Error(`experiment ${definition.id} does not split 10,000 basis points between distinctly named arms`);
  const subjectDigest = 'subject' in subject ? subjectDigestOf(subject.subject) : subject.subjectDigest;
  const bucket = assignmentBucket(definition.id, definition.salt, subjectDigest);
  return { arm: servingArm(definition.arms, armOfBucket(definition.arms, bucket), options.at), bucket, subjectDigest };
}

/** The arm that prices a bucket's subjects at `at`: the first arm instead of one paused by then. */
function servingArm(arms: readonly AssignmentArm[], name: string, at: Date | string | undefined): string {
  const arm = arms.find((a) => a.name === name)!;
  if (!arm.pausedAt || arm === arms[0]) return name;
  const when = at === undefined ? Date.now() : new Date(at).getTime();
  return when >= Date.parse(arm.pausedAt) ? arms[0].name : name;
}

/** A receipt's `experiment` field (receipt format 2); the receipt's `createdAt` says when it was made. */
export type ReceiptExperiment = { arm: string; bucket: number; experimentId: string; subjectDigest: string };

/** The account surface's quote records it in its own words (snake_case); its `created` says when it was made. */
export type AccountQuoteExperiment = { arm: string; bucket: number; experiment_id: string; subject_digest: string };

/** What the assignment check reads of a receipt or of an account-surface quote. */
export type DocumentWithExperiment = { experiment?: ReceiptExperiment | AccountQuoteExperiment | null; createdAt?: string; created?: string };

function recordedAssignment(document: DocumentWithExperiment): { recorded: ReceiptExperiment | null; at: string | undefined } {
  const e = document.experiment;
  if (!e) return { recorded: null, at: undefined };
  if ('experiment_id' in e) {
    return { recorded: { arm: e.arm, bucket: e.bucket, experimentId: e.experiment_id, subjectDigest: e.subject_digest }, at: document.created };
  }
  return { recorded: e, at: document.createdAt };
}

export type ExperimentCheck =
  | { status: 'matches'; arm: string; bucket: number }
  /** The receipt was priced outside any experiment. */
  | { status: 'no_experiment' }
  | { status: 'other_experiment'; experimentId: string }
  /** The subject given is not the one the receipt was assigned for. */
  | { status: 'other_subject' }
  | { status: 'mismatch'; expected: { arm: string; bucket: number }; recorded: { arm: string; bucket: number } };

/**
 * Recomputes a receipt's (or an account-surface quote's) arm offline from the experiment's published definition and the subject,
 * and compares it with what the receipt records. Check the receipt's signature first
 * (`verifyReceipt`): this says whether the signed assignment is the one the definition gives.
 */
export function checkReceiptAssignment(receipt: DocumentWithExperiment, definition: AssignmentDefinition, subject: string): ExperimentCheck {
  const { recorded, at } = recordedAssignment(receipt);
  if (!recorded) return { status: 'no_experiment' };
  if (recorded.experimentId !== definition.id) return { status: 'other_experiment', experimentId: recorded.experimentId };
  // Assigned as at the receipt's making: an arm paused since still recomputes for it.
  const expected = assignArm(definition, { subject }, { at });
  if (expected.subjectDigest !== recorded.subjectDigest) return { status: 'other_subject' };
  if (expected.arm !== recorded.arm || expected.bucket !== recorded.bucket) {
    return { status: 'mismatch', expected: { arm: expected.arm, bucket: expected.bucket }, recorded: { arm: recorded.arm, bucket: recorded.bucket } };
  }
  return { status: 'matches', arm: expected.arm, bucket: expected.bucket };
}
