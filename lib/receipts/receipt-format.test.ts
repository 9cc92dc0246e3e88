import { randomBytes } from 'node:crypto';
import sodium from 'sodium-native';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inReceiptFormat, RECEIPT_FORMATS, receiptShapeOfEveryFormat } from './receipt-format';
import { checkSignature, signDocument, signerFromSeed, type ReceiptKeyRing } from './receipt-signature';

/**
 * A field added to receipts later must not break the check of a receipt signed now: a receipt is
 * shown in the format it was signed in. Here a later format 2 adds `validUntil`.
 */
describe('receipt formats', () => {
  const later = { ...RECEIPT_FORMATS, 2: [...RECEIPT_FORMATS[1], 'validUntil'].sort() };
  const signer = signerFromSeed('rsk_test', randomBytes(32));
  const publicKey = Buffer.from(signer.secretKey.subarray(sodium.crypto_sign_SEEDBYTES));
  const ring = new Map([['rsk_test', { publicKey }]]) as unknown as ReceiptKeyRing;
  const verified = (document: Record<string, unknown>) => checkSignature(document, ring).status === 'verified';
  const fields = Object.fromEntries(RECEIPT_FORMATS[1].map((f) => [f, f === 'latencyMs' ? 3 : f === 'missingInputs' ? [] : `${f}-value`]));

  it('keeps a receipt signed in format 1 verifying once format 2 adds a field', () => {
    const signed: Record<string, unknown> = { ...fields, signature: signDocument(signer, fields) };
    expect(verified(signed)).toBe(true);
    // Tomorrow's view of the same stored row carries the new field…
    const tomorrow = { ...fields, validUntil: null, signature: signed.signature };
    expect(verified(tomorrow)).toBe(false);
    // …and shown in its own format it is exactly what was signed.
    const shown = inReceiptFormat(tomorrow, 1, later);
    expect(shown).toEqual(signed);
    expect(verified(shown)).toBe(true);
  });

  it('shows a receipt of the later format with its field, and refuses an unknown format', () => {
    const v2 = { ...fields, validUntil: '2031-01-01T00:00:00.000Z' };
    const signed = { ...v2, signature: signDocument(signer, v2) };
    expect(verified(inReceiptFormat(signed, 2, later))).toBe(true);
    expect(() => inReceiptFormat(signed, 9, later)).toThrow(/format 9 is unknown/);
  });

  it('only add: each format has every field of the one before, in canonical order', () => {
    const formats = Object.entries(RECEIPT_FORMATS).map(([format, fields]): [number, string[]] => [Number(format), [...fields]]);
    formats.forEach(([format, fields], index) => {
      expect(format).toBe(index + 1);
      expect(fields).toEqual([...fields].sort());
      if (index === 0) return;
      const before: string[] = formats[index - 1][1];
      expect(before.every((field) => fields.includes(field)), `format ${format} keeps every field of ${format - 1}`).toBe(true);
      expect(fields.length, `format ${format} adds a field`).toBeGreaterThan(before.length);
    });
  });

  it('make a response schema that takes a receipt of every format: the later format’s field is optional, not a 500 for old receipts', () => {
    const fieldSchemas = Object.fromEntries([...RECEIPT_FORMATS[1], 'validUntil'].map((f) => [f, f === 'latencyMs' ? z.number() : f === 'missingInputs' ? z.array(z.string()) : z.string()]));
    const schema = z.object(receiptShapeOfEveryFormat(fieldSchemas as never, later));
    const old = { ...fields };
    expect(schema.parse(old)).toEqual(old);
    expect('validUntil' in schema.parse(old)).toBe(false);
    expect(schema.parse({ ...fields, validUntil: '2031-01-01' })).toEqual({ ...fields, validUntil: '2031-01-01' });
    // A field of every format stays required.
    const { latencyMs: _latency, ...withoutLatency } = fields;
    expect(schema.safeParse(withoutLatency).success).toBe(false);
  });
});
