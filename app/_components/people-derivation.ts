// A stored receipt's steps in people's words. Receipts keep the engine's wording (ids, minor
// units) forever; a view re-prices the same inputs with the pinned version and people's wording
// and shows those words only when every step came out the same (determinism makes it so; the
// check keeps an engine change from putting wrong words beside a stored price).
import { storedBookArtifactSchema, compileBook, evaluate, type QuoteComputation, type QuoteInputs } from '@/lib/pricing';
import { peopleWording } from './people-wording';

export type PeopleDerivation = { computation: QuoteComputation; ruleLabels: Map<string, string> };

export function inPeopleWords(artifact: unknown, inputs: QuoteInputs, stored: QuoteComputation): PeopleDerivation | null {
  const parsed = storedBookArtifactSchema.safeParse(artifact);
  if (!parsed.success) return null;
  const outcome = evaluate(compileBook(parsed.data, peopleWording(parsed.data.currency)), inputs);
  if (outcome.outcome !== 'succeeded') return null;
  const steps = outcome.computation.derivation;
  const same =
    steps.length === stored.derivation.length &&
    steps.every((step, i) => {
      const was = stored.derivation[i];
      return step.ruleId === was.ruleId && step.status === was.status && step.deltaMinor === was.deltaMinor && step.runningTotalMinor === was.runningTotalMinor;
    });
  if (!same) return null;
  return {
    computation: { ...stored, derivation: stored.derivation.map((step, i) => ({ ...step, reason: steps[i].reason })) },
    ruleLabels: new Map(parsed.data.rules.map((rule) => [rule.id, rule.label])),
  };
}
