// Without zod: the engine runs in the portal's book editor too (test/unit/layering.test.ts).

/** A book's rules are evaluated phase by phase, in this fixed order (docs/price-book.md). */
export const PHASES = [
  'base',
  'baseOverride',
  'scopedModifier',
  'conditionalModifier',
  'discount',
  'guardrail',
  'paymentTerms',
] as const;
export type Phase = (typeof PHASES)[number];
