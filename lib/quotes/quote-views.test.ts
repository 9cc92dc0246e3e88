import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../books/demo-book';
import { inCanonicalOrder } from '../hash/canonical-json';
import { bookArtifactSchema, compileBook } from '../pricing';
import { generateBook, generateInputs, prng } from '../testing/generate-book';
import type { QuoteInputs } from '../pricing';
import { priceQuote, pricedFields } from './quote-outcome';
import { CURRENT_RECEIPT_FORMAT, RECEIPT_FORMATS } from '../receipts/receipt-format';
import { toReceiptView } from './quote-views';
import { quoteReceiptSchema } from './schemas';

/**
 * Signing a receipt on every quote's path costs its canonical JSON: cheap only while the receipt
 * is written with every key in order (then its JSON.stringify is canonical). These receipts are.
 */
describe('receipt views', () => {
  const row = (fields: ReturnType<typeof pricedFields>) => ({
    ...fields,
    id: '0b6c9a43-5d0e-4b55-8f43-b7e0a8f1c2d3',
    quoteIntentId: '7e3a7c2a-9d7c-4d1e-a9b0-6f0b8a1c2d3e',
    source: 'api' as const,
    bookVersionId: null,
    idempotencyKey: 'auto_x',
    requestCorrelationId: 'req',
    latencyMs: 3,
    createdAt: new Date(),
    signatureKid: 'rsk_x',
    signature: 'c2ln',
    formatVersion: CURRENT_RECEIPT_FORMAT,
    experiment: null,
  });

  it('write every key in canonical order, for every outcome, fresh or read back from storage', () => {
    const random = prng(3);
    // Some answers left out (requires input) or not an option (failed).
    const spoiled = (inputs: QuoteInputs): QuoteInputs => {
      const factors = Object.fromEntries(
        Object.entries(inputs.factors).flatMap(([id, option]) => {
          const roll = random();
          return roll < 0.05 ? [] : [[id, roll < 0.07 ? 'not_an_option' : option]];
        }),
      );
      return { offeringId: inputs.offeringId, factors };
    };
    const demo = compileBook(bookArtifactSchema.parse(demoBookArtifact));
    const demoInputs = Array.from({ length: 300 }, (): QuoteInputs => {
      const offering = demoBookArtifact.offerings[Math.floor(random() * demoBookArtifact.offerings.length)];
      const factors = Object.fromEntries(demoBookArtifact.factors.map((f) => [f.id, f.options[Math.floor(random() * f.options.length)].id]));
      return { offeringId: offering.id, factors };
    });
    const generated = compileBook(bookArtifactSchema.parse(generateBook(40)));
    const cases = [...demoInputs.map((inputs) => [demo, spoiled(inputs)] as const), ...generateInputs(300).map((inputs) => [generated, spoiled(inputs)] as const)];
    const outcomes = new Set<string>();
    for (const [book, inputs] of cases) {
      const fields = pricedFields(priceQuote(book, inputs));
      outcomes.add(fields.outcome);
      expect(inCanonicalOrder(toReceiptView(row(fields)))).toBe(true);
      expect(inCanonicalOrder(toReceiptView(row(JSON.parse(JSON.stringify(fields)))))).toBe(true);
    }
    expect(inCanonicalOrder(toReceiptView(row(pricedFields(priceQuote(null, { offeringId: 'x', factors: {} })))))).toBe(true);
    expect([...outcomes].sort()).toEqual(['failed', 'requires_input', 'succeeded']);
  });

  it('show exactly the current format’s fields: a field added to the view without a new format fails here', () => {
    const view = toReceiptView(row(pricedFields(priceQuote(compileBook(bookArtifactSchema.parse(demoBookArtifact)), { offeringId: 'window_cleaning', factors: {} }))));
    expect(Object.keys(view).filter((key) => key !== 'signature')).toEqual([...RECEIPT_FORMATS[CURRENT_RECEIPT_FORMAT]]);
  });

  it('show a format-1 receipt without `experiment`, and a format-2 one with it, in canonical order', () => {
    const fields = pricedFields(priceQuote(compileBook(bookArtifactSchema.parse(demoBookArtifact)), { offeringId: 'window_cleaning', factors: {} }));
    const old = toReceiptView({ ...row(fields), formatVersion: 1 });
    expect('experiment' in old).toBe(false);
    expect(Object.keys(old).filter((key) => key !== 'signature')).toEqual([...RECEIPT_FORMATS[1]]);
    const experiment = { arm: 'variant_1', bucket: 4242, experimentId: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140', subjectDigest: 'ab'.repeat(32) };
    const current = toReceiptView({ ...row(fields), experiment });
    expect(current.experiment).toEqual(experiment);
    expect(inCanonicalOrder(current)).toBe(true);
  });

  it('pass the response schema as they are shown, in every format: nothing required that a format lacks, nothing added', () => {
    const fields = pricedFields(priceQuote(compileBook(bookArtifactSchema.parse(demoBookArtifact)), { offeringId: 'window_cleaning', factors: {} }));
    const every = new Set(Object.values(RECEIPT_FORMATS).flat());
    expect(Object.keys(quoteReceiptSchema.shape).filter((key) => key !== 'signature').sort()).toEqual([...every].sort());
    for (const format of Object.keys(RECEIPT_FORMATS).map(Number)) {
      const view = toReceiptView({ ...row(fields), formatVersion: format });
      const answered = quoteReceiptSchema.parse(view);
      expect(answered, `format ${format}`).toEqual(view);
      expect(Object.keys(answered).sort(), `format ${format}`).toEqual(Object.keys(view).sort());
    }
  });
});
