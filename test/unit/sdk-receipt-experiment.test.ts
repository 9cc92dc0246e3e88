import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { receipts, type components, type ReceiptKeySet, type SignedDocument } from '../../sdk/src/index';
import { canonicalJson } from '../../sdk/src/canonical-json';
import { assignArm } from '../../sdk/src/experiments';

// `receipts.verify(receipt, keys, { experiment, subject })`: the signature's check and the arm's,
// offline, from the experiment's published definition and the subject.

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const kid = 'rsk_test_experiment';
const keys: ReceiptKeySet = { keys: [{ ...(publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string }), kid, alg: 'EdDSA' }] };
const signed = (document: Record<string, unknown>): SignedDocument => ({
  ...document,
  signature: { alg: 'Ed25519', kid, value: sign(null, Buffer.from(canonicalJson(document), 'utf8'), privateKey).toString('base64url') },
});

const definition = {
  id: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140',
  salt: '5c0f3e9a7b214d6e8f90a1b2c3d4e5f6',
  arms: [
    { name: 'control', basisPoints: 5000 },
    { name: 'variant_1', basisPoints: 5000 },
  ],
};
const receiptFor = (subject: string) => {
  const { arm, bucket, subjectDigest } = assignArm(definition, { subject });
  return signed({ format: 2, id: 'r1', experiment: { arm, bucket, experimentId: definition.id, subjectDigest } });
};

describe('receipts.verify with an experiment', () => {
  it('answers the signature alone without the option', async () => {
    expect(await receipts.verify(receiptFor('customer-1'), keys)).toEqual({ status: 'verified', kid });
  });

  it('says the arm matches for the subject the receipt was priced for', async () => {
    const { arm, bucket } = assignArm(definition, { subject: 'customer-1' });
    expect(await receipts.verify(receiptFor('customer-1'), keys, { experiment: definition, subject: 'customer-1' })).toEqual({
      status: 'verified',
      kid,
      experiment: { status: 'matches', arm, bucket },
    });
  });

  it('tells another subject, another experiment, no experiment and a re-signed different arm apart', async () => {
    const receipt = receiptFor('customer-1');
    expect((await receipts.verify(receipt, keys, { experiment: definition, subject: 'someone-else' })).experiment).toEqual({ status: 'other_subject' });
    const other = { ...definition, id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' };
    expect((await receipts.verify(receipt, keys, { experiment: other, subject: 'customer-1' })).experiment).toEqual({ status: 'other_experiment', experimentId: definition.id });
    expect((await receipts.verify(signed({ format: 2, experiment: null }), keys, { experiment: definition, subject: 'customer-1' })).experiment).toEqual({
      status: 'no_experiment',
    });
    // A receipt signed with the other arm (a signing key's holder's mistake, or a forgery with a stolen key): the signature verifies, the arm does not.
    const recorded = receipt.experiment as { arm: string; bucket: number };
    const otherArm = recorded.arm === 'control' ? 'variant_1' : 'control';
    const wrong = signed({ format: 2, id: 'r1', experiment: { ...(receipt.experiment as object), arm: otherArm } });
    expect(await receipts.verify(wrong, keys, { experiment: definition, subject: 'customer-1' })).toEqual({
      status: 'verified',
      kid,
      experiment: { status: 'mismatch', expected: { arm: recorded.arm, bucket: recorded.bucket }, recorded: { arm: otherArm, bucket: recorded.bucket } },
    });
  });

  it('reports a tampered arm as a bad signature and a mismatch', async () => {
    const receipt = receiptFor('customer-1');
    const recorded = receipt.experiment as { arm: string };
    const tampered = { ...receipt, experiment: { ...(receipt.experiment as object), arm: recorded.arm === 'control' ? 'variant_1' : 'control' } };
    const check = await receipts.verify(tampered, keys, { experiment: definition, subject: 'customer-1' });
    expect(check.status).toBe('bad_signature');
    expect(check.experiment.status).toBe('mismatch');
  });
});

// The experiment as the API answers it is a definition `verify` takes, as it is (checked by the typecheck).
export function verifyWithApiExperiment(receipt: SignedDocument, experiment: components['schemas']['Experiment']) {
  return receipts.verify(receipt, keys, { experiment, subject: 'customer-1' });
}
