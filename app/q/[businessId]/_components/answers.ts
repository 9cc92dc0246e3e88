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
