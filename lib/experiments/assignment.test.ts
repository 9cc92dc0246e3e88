import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { armOfBucket, assignArm, assignmentBucket, checkReceiptAssignment, isValidSplit, subjectDigestOf, type AssignmentArm } from './assignment';

const ID = '0b7e5a4c-1d2e-4f3a-8b9c-0d1e2f3a4b5c';
const SALT = 'c2f1d0e9b8a7f6e5d4c3b2a1f0e9d8c7';
const split = (...basisPoints: number[]): AssignmentArm[] => basisPoints.map((bp, i) => ({ name: i === 0 ? 'control' : `variant_${i}`, basisPoints: bp }));

/** Shares of 100,000 subjects per arm. */
function shares(arms: AssignmentArm[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < 100_000; i++) {
    const { arm } = assignArm({ id: ID, salt: SALT, arms }, { subject: `subject-${i}` });
    counts.set(arm, (counts.get(arm) ?? 0) + 1);
  }
  return new Map([...counts].map(([arm, n]) => [arm, n / 100_000]));
}

describe('experiment assignment', () => {
  it('is the documented formula: HMAC-SHA256(salt, id:sha256(subject)), first 8 bytes mod 10000', async () => {
    const { createHash, createHmac } = await import('node:crypto');
    const digest = createHash('sha256').update('visitor-42').digest('hex');
    const mac = createHmac('sha256', SALT).update(`${ID}:${digest}`).digest();
    const expected = Number(mac.readBigUInt64BE(0) % 10000n);
    expect(subjectDigestOf('visitor-42')).toBe(digest);
    expect(assignmentBucket(ID, SALT, digest)).toBe(expected);
    expect(assignArm({ id: ID, salt: SALT, arms: split(5000, 5000) }, { subject: 'visitor-42' })).toEqual({
      arm: expected < 5000 ? 'control' : 'variant_1',
      bucket: expected,
      subjectDigest: digest,
    });
  });

  it('computes its HMAC as createHmac does, for any salt (longer than a block too), experiment id and subject', async () => {
    const { createHash, createHmac } = await import('node:crypto');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 80 }), (salt, id, subject) => {
        const digest = createHash('sha256').update(subject, 'utf8').digest('hex');
        const mac = createHmac('sha256', Buffer.from(salt, 'utf8')).update(`${id}:${digest}`, 'utf8').digest();
        expect(subjectDigestOf(subject)).toBe(digest);
        expect(assignmentBucket(id, salt, digest)).toBe(Number(mac.readBigUInt64BE(0) % 10000n));
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic: the same subject, the same arm and bucket, from the subject or its digest', () => {
    const definition = { id: ID, salt: SALT, arms: split(9000, 1000) };
    for (const subject of ['a', 'customer-7', 'ünïcødé', 'x'.repeat(200)]) {
      const first = assignArm(definition, { subject });
      expect(assignArm(definition, { subject })).toEqual(first);
      expect(assignArm(definition, { subjectDigest: subjectDigestOf(subject) })).toEqual(first);
    }
  });

  it('splits 100k subjects 50/50 and 90/10 within half a percentage point', () => {
    const even = shares(split(5000, 5000));
    expect(Math.abs(even.get('control')! - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(even.get('variant_1')! - 0.5)).toBeLessThan(0.005);
    const skewed = shares(split(9000, 1000));
    expect(Math.abs(skewed.get('control')! - 0.9)).toBeLessThan(0.005);
    expect(Math.abs(skewed.get('variant_1')! - 0.1)).toBeLessThan(0.005);
  });

  it('keeps a subject in its arm while the weights are unchanged, and moves it with the salt or experiment only through the bucket', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 0, max: 10_000 }), (subject, controlBp) => {
        const arms = split(controlBp, 10_000 - controlBp);
        const a = assignArm({ id: ID, salt: SALT, arms }, { subject });
        const b = assignArm({ id: ID, salt: SALT, arms: arms.map((arm) => ({ ...arm })) }, { subject });
        expect(b).toEqual(a);
        expect(a.bucket).toBeGreaterThanOrEqual(0);
        expect(a.bucket).toBeLessThan(10_000);
        expect(a.arm).toBe(a.bucket < controlBp ? 'control' : 'variant_1');
      }),
      { numRuns: 500 },
    );
  });

  it('places buckets by cumulative basis points, skipping zero-weight arms', () => {
    const arms = split(2000, 0, 8000);
    expect(armOfBucket(arms, 0)).toBe('control');
    expect(armOfBucket(arms, 1999)).toBe('control');
    expect(armOfBucket(arms, 2000)).toBe('variant_2');
    expect(armOfBucket(arms, 9999)).toBe('variant_2');
    expect(isValidSplit(split(5000, 4999))).toBe(false);
    expect(isValidSplit([{ name: 'control', basisPoints: 5000 }, { name: 'control', basisPoints: 5000 }])).toBe(false);
    expect(() => assignArm({ id: ID, salt: SALT, arms: split(5000, 4000) }, { subject: 's' })).toThrow(/10,000/);
  });

  it('checks a receipt’s recorded assignment against the definition and subject', () => {
    const definition = { id: ID, salt: SALT, arms: split(5000, 5000) };
    const assigned = assignArm(definition, { subject: 'customer-7' });
    const receipt = { experiment: { experimentId: ID, ...assigned } };
    expect(checkReceiptAssignment(receipt, definition, 'customer-7')).toEqual({ status: 'matches', arm: assigned.arm, bucket: assigned.bucket });
    expect(checkReceiptAssignment(receipt, definition, 'customer-8').status).toBe('other_subject');
    expect(checkReceiptAssignment({ experiment: null }, definition, 'customer-7').status).toBe('no_experiment');
    expect(checkReceiptAssignment(receipt, { ...definition, id: 'another' }, 'customer-7').status).toBe('other_experiment');
    const forged = { experiment: { ...receipt.experiment, arm: assigned.arm === 'control' ? 'variant_1' : 'control' } };
    expect(checkReceiptAssignment(forged, definition, 'customer-7').status).toBe('mismatch');
  });
});

describe('a paused arm', () => {
  const arms = [
    { name: 'control', basisPoints: 5000 },
    { name: 'variant_1', basisPoints: 5000, pausedAt: '2026-12-01T12:00:00.000Z' },
  ];
  const definition = { id: ID, salt: SALT, arms };
  const inVariant = Array.from({ length: 50 }, (_, i) => `s-${i}`).find((s) => assignArm({ ...definition, arms: arms.map(({ name, basisPoints }) => ({ name, basisPoints })) }, { subject: s }).arm === 'variant_1')!;

  it('sends its subjects to the control from pausedAt on, in the same bucket; quotes made before keep the arm', () => {
    const before = assignArm(definition, { subject: inVariant }, { at: '2026-12-01T11:59:59.999Z' });
    const after = assignArm(definition, { subject: inVariant }, { at: new Date('2026-12-01T12:00:00.000Z') });
    expect(before.arm).toBe('variant_1');
    expect(after).toEqual({ ...before, arm: 'control' });
    expect(assignArm(definition, { subject: inVariant }).arm).toBe('control'); // now
  });

  it('checks a receipt at its createdAt', () => {
    const made = assignArm(definition, { subject: inVariant }, { at: '2026-12-01T11:00:00.000Z' });
    const receipt = { createdAt: '2026-12-01T11:00:00.000Z', experiment: { arm: made.arm, bucket: made.bucket, experimentId: ID, subjectDigest: made.subjectDigest } };
    expect(checkReceiptAssignment(receipt, definition, inVariant)).toEqual({ status: 'matches', arm: 'variant_1', bucket: made.bucket });
    expect(checkReceiptAssignment({ ...receipt, createdAt: '2026-12-01T13:00:00.000Z' }, definition, inVariant).status).toBe('mismatch');
  });
});
