import type { QuoteSurface } from '@/lib/businesses/get-quote-surface';

export type Offering = QuoteSurface['offerings'][number];
export type Factor = Offering['factors'][number];

/** What the customer has said so far. A factor that is absent is unanswered; `null` is "I'm not sure". */
export type Answers = { offeringId: string; factors: Record<string, string | null> };

export const NO_ANSWERS: Answers = { offeringId: '', factors: {} };

/** The answers the chosen offering asks for; answers kept from another offering stay behind. */
export function factorsToSend(offering: Offering | undefined, answers: Answers): Record<string, string | null> {
  const sent: Record<string, string | null> = {};
  for (const factor of offering?.factors ?? []) {
    if (factor.id in answers.factors) sent[factor.id] = answers.factors[factor.id];
  }
  return sent;
}

/** The `missingInputs` path of a field, as the receipt names it. */
export const offeringPath = 'offeringId';
export const factorPath = (factorId: string) => `factors.${factorId}`;

/**
 * What the form still needs before the service can price it, as `missingInputs` paths in the
 * form's order: the service, then each required question left unanswered ("not sure" answers
 * one only where the book prices it with an assumption), as the engine decides it.
 */
export function missingAnswers(offering: Offering | undefined, answers: Answers): string[] {
  if (!offering) return [offeringPath];
  return offering.factors
    .filter((factor) => factor.required && (answers.factors[factor.id] === undefined || (answers.factors[factor.id] === null && !factor.unknownAllowed)))
    .map((factor) => factorPath(factor.id));
}

/** What is missing, said as a sentence that names the questions as the form labels them. */
export function missingSentence(missing: ReadonlySet<string>, offering: Offering | undefined): string | null {
  if (missing.has(offeringPath)) return 'Choose the service you would like a price for.';
  const labels = (offering?.factors ?? []).filter((factor) => missing.has(factorPath(factor.id))).map((factor) => `“${factor.label}”`);
  if (labels.length === 0) return null;
  if (labels.length === 1) return `Please answer ${labels[0]} so that we can work out your price.`;
  const listed = `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `Please answer ${labels.length} more questions so that we can work out your price: ${listed}.`;
}
