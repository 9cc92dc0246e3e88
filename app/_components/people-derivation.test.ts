import { describe, expect, it } from 'vitest';
import { generateBook, generateInputs } from '@/lib/testing/generate-book';
import { bookArtifactSchema, compileBook, evaluate, type QuoteComputation } from '@/lib/pricing';
import { inPeopleWords } from './people-derivation';

const artifact = generateBook(40);
const stored = (inputs: ReturnType<typeof generateInputs>[number]): QuoteComputation => {
  const outcome = evaluate(compileBook(bookArtifactSchema.parse(artifact)), inputs);
  if (outcome.outcome !== 'succeeded') throw new Error('expected a price');
  return outcome.computation;
};

describe('a stored receipt in people’s words', () => {
  it('keeps every stored figure and replaces ids with labels in every reason', () => {
    for (const inputs of generateInputs(25, 3)) {
      const computation = stored(inputs);
      const people = inPeopleWords(artifact, inputs, computation);
      expect(people).not.toBeNull();
      const { derivation, ...figures } = people!.computation;
      const { derivation: storedSteps, ...storedFigures } = computation;
      expect(figures).toEqual(storedFigures);
      expect(derivation.map(({ reason, ...step }) => step)).toEqual(storedSteps.map(({ reason, ...step }) => step));
      for (const step of derivation) expect(step.reason).not.toMatch(/\bf\d+\b|\bo\d+\b|"/);
      expect(derivation.some((step) => /Factor \d/.test(step.reason))).toBe(true);
      expect(people!.ruleLabels.get('r0')).toBe('Rule 0');
    }
  });

  it('keeps the stored words when the version does not give the same steps (or is not a book)', () => {
    const inputs = generateInputs(1, 3)[0];
    const computation = stored(inputs);
    const changed = { ...computation, derivation: computation.derivation.map((s, i) => (i === 0 ? { ...s, deltaMinor: s.deltaMinor + 1 } : s)) };
    expect(inPeopleWords(artifact, inputs, changed)).toBeNull();
    expect(inPeopleWords({ not: 'a book' }, inputs, computation)).toBeNull();
  });
});
