import { createHash, createHmac } from 'node:crypto';

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
 */

/** Buckets a subject can fall in: weights are basis points of this. */
export const ASSIGNMENT_BUCKETS = 10_000;

/** An arm as the experiment's published definition lists it (control first). */
export type AssignmentArm = { name: string; basisPoints: number };

/** What assignment needs of an experiment: GET /v1/books/{bookId}/experiments/{id} answers it. */
export type AssignmentDefinition = { id: string; salt: string; arms: readonly AssignmentArm[] };

export type Assignment = { arm: string; bucket: number; subjectDigest: string };

/** sha256 (hex) of the subject's UTF-8: what a receipt names the subject by; the subject itself is never stored. */
export function subjectDigestOf(subject: string): string {
  return createHash('sha256').update(subject, 'utf8').digest('hex');
}

/** The subject's bucket, 0–9999, in one experiment. */
export function assignmentBucket(experimentId: string, salt: string, subjectDigest: string): number {
  const mac = createHmac('sha256', Buffer.from(salt, 'utf8')).update(`${experimentId}:${subjectDigest}`, 'utf8').digest();
  return Number(mac.readBigUInt64BE(0) % BigInt(ASSIGNMENT_BUCKETS));
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

/** The arm of a subject (or of its digest) in an experiment. */
export function assignArm(definition: AssignmentDefinition, subject: { subject: string } | { subjectDigest: string }): Assignment {
  if (!isValidSplit(definition.arms)) throw new Error(`experiment ${definition.id} does not split 10,000 basis points between distinctly named arms`);
  const subjectDigest = 'subject' in subject ? subjectDigestOf(subject.subject) : subject.subjectDigest;
  const bucket = assignmentBucket(definition.id, definition.salt, subjectDigest);
  return { arm: armOfBucket(definition.arms, bucket), bucket, subjectDigest };
}

/** A receipt's `experiment` field (receipt format 2). */
export type ReceiptExperiment = { arm: string; bucket: number; experimentId: string; subjectDigest: string };

export type ExperimentCheck =
  | { status: 'matches'; arm: string; bucket: number }
  /** The receipt was priced outside any experiment. */
  | { status: 'no_experiment' }
  | { status: 'other_experiment'; experimentId: string }
  /** The subject given is not the one the receipt was assigned for. */
  | { status: 'other_subject' }
  | { status: 'mismatch'; expected: { arm: string; bucket: number }; recorded: { arm: string; bucket: number } };

/**
 * Recomputes a receipt's arm offline from the experiment's published definition and the subject,
 * and compares it with what the receipt records. Check the receipt's signature first
 * (`verifyReceipt`): this says whether the signed assignment is the one the definition gives.
 */
export function checkReceiptAssignment(
  receipt: { experiment?: ReceiptExperiment | null },
  definition: AssignmentDefinition,
  subject: string,
): ExperimentCheck {
  const recorded = receipt.experiment;
  if (!recorded) return { status: 'no_experiment' };
  if (recorded.experimentId !== definition.id) return { status: 'other_experiment', experimentId: recorded.experimentId };
  const expected = assignArm(definition, { subject });
  if (expected.subjectDigest !== recorded.subjectDigest) return { status: 'other_subject' };
  if (expected.arm !== recorded.arm || expected.bucket !== recorded.bucket) {
    return { status: 'mismatch', expected: { arm: expected.arm, bucket: expected.bucket }, recorded: { arm: recorded.arm, bucket: recorded.bucket } };
  }
  return { status: 'matches', arm: expected.arm, bucket: expected.bucket };
}
