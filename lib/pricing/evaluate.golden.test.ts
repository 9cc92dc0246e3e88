import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateBook, generateInputs, prng } from '../testing/generate-book';
import { demoBookArtifact } from '../books/demo-book';
import { canonicalJson } from '../hash/canonical-json';
import { RECEIPT_WORDING, bookArtifactSchema, compileBook, evaluate, type QuoteInputs, type Wording } from './index';

// Stored receipts never change: the same book and answers must give the same receipt, value for
// value (its canonical JSON, RFC 8785, which is what receipts are signed over), whatever the
// engine's insides. Each digest is the SHA-256 of the canonical JSON receipts of a fixed book
// (the demo book, or one from lib/testing/generate-book.ts with a fixed seed) for fixed answers
// (answersFor, seeded), evaluated twice. They were taken with the engine of commit 7e8b149 as
// digests of JSON.stringify, and taken again as canonical digests from the same engine before
// its receipts' keys were written in sorted order; a failure here is a change to receipts.
// To change receipts on purpose (a new wording, a new field), run this file, check the new
// receipts by hand (evaluate.test.ts shows them whole), copy the digests from the failure
// messages, and say in the commit why receipts of new quotes now differ (stored ones never change).

/** Complete answers, then variants with a factor left out, unknown, or not an option. */
function answersFor(book: { offerings: { id: string }[]; factors: { id: string; options: { id: string }[] }[] }, count: number, seed: number): QuoteInputs[] {
  const random = prng(seed);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  return Array.from({ length: count }, () => {
    const factors: Record<string, string | null> = {};
    for (const f of book.factors) {
      const x = random();
      if (x < 0.04) continue;
      factors[f.id] = x < 0.12 ? null : x < 0.125 ? 'not_an_option' : pick(f.options).id;
    }
    return { offeringId: pick(book.offerings).id, factors };
  });
}

function digest(artifactInput: unknown, inputs: QuoteInputs[]): string {
  const book = compileBook(bookArtifactSchema.parse(artifactInput));
  const hash = createHash('sha256');
  // Twice: wordings built on first use must read the same the second time. Canonical JSON: the
  // content counts, not the order the engine writes keys in (receipts keep it sorted, see canonical-json.ts).
  for (let round = 0; round < 2; round++) for (const x of inputs) hash.update(canonicalJson(evaluate(book, x))).update('\n');
  return hash.digest('hex');
}

describe('receipts are byte for byte those of the reference engine', () => {
  it('demo book', () => {
    const artifact = bookArtifactSchema.parse(demoBookArtifact);
    expect(digest(demoBookArtifact, answersFor(artifact, 400, 1))).toBe('d3142b2c197a57b859a8af366fbbccf936fc156532f24072348407132dd1af39');
  });

  it('generated books of 10 and 300 rules', () => {
    const inputs = [...generateInputs(150), ...answersFor(bookArtifactSchema.parse(generateBook(10)), 150, 2)];
    expect(digest(generateBook(10), inputs)).toBe('dfb399cd8607c6b434e8c2c37cff43ee6d39e8239356c40dc417197ec40dc56b');
    expect(digest(generateBook(300, 5), inputs)).toBe('765a6fcab909f79af0cb7599bb9fbb48d66571bec54db8de29d408e403cb0417');
  });
});

describe('other wordings', () => {
  it('word the same steps with other words: statuses, amounts and totals are the receipt’s', () => {
    const artifact = bookArtifactSchema.parse(demoBookArtifact);
    const labelled: Wording = { ...RECEIPT_WORDING, factor: (f) => f.label.toUpperCase(), money: (m) => `¤${m}` };
    for (const inputs of answersFor(artifact, 200, 7)) {
      const receipt = evaluate(compileBook(artifact), inputs);
      const worded = evaluate(compileBook(artifact, labelled), inputs);
      const strip = (o: typeof receipt) => (o.outcome === 'succeeded' ? { ...o, computation: { ...o.computation, derivation: o.computation.derivation.map(({ reason, ...rest }) => rest) } } : o);
      expect(strip(worded)).toEqual(strip(receipt));
      if (worded.outcome === 'succeeded') expect(worded.computation.derivation[0].reason).toContain('¤');
    }
    // The receipt's compilation is kept; compiling with another wording does not replace it.
    const kept = compileBook(artifact);
    compileBook(artifact, labelled);
    expect(compileBook(artifact)).toBe(kept);
  });
});

