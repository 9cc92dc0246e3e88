import type { BookArtifact, Factor, Offering } from './book-artifact';
import { PHASES, type Phase } from './phases';
import type { FactorOption, Wording } from './wording';

// A compiled book is a plan: the rules in evaluation order (phase by phase, then book order)
// as flat arrays, every constant wording built once, and answers looked up by number. Pricing
// then walks compact arrays instead of the artifact's objects, which keeps large books fast.
// Rules are known by their position p in that order; a rule's derivation entry has sequence p + 1.
// An answer row holds, by factor index, the answer's option number (1-based; 0 = unanswered).

/** The phases rules belong to, in evaluation order ('base' is the offering's own price). */
export const PRICED_PHASES = PHASES.slice(1) as readonly Exclude<Phase, 'base'>[];

export type CompiledFactor = {
  factor: Factor;
  index: number;
  options: ReadonlyMap<string, FactorOption>;
  /** option id -> its number (1-based: 0 in an answer row means unanswered). */
  optionNumbers: ReadonlyMap<string, number>;
  optionIds: readonly string[];
};

/** What each rule is and does, by position (compile-rules.ts). */
export type RuleTables = {
  ruleCount: number;
  /** Where each of PRICED_PHASES starts, and the end: phase i is phaseStart[i] .. phaseStart[i + 1]. */
  phaseStart: readonly number[];
  phases: readonly Phase[];
  ids: readonly string[];
  labels: readonly string[];
  ruleTypes: readonly string[];
  /** priceMinor, amountMinor, basisPoints or depositBasisPoints. */
  values: readonly number[];
  /** 1 = a percentage (modifiers, discounts); for guardrails 1 = minimumTotal. */
  flags: Uint8Array;
};

/** The parts of rules' reasons that do not depend on the answers (compile-rule-wordings.ts). */
export type RuleWordings = {
  /** Wording after "matched because …" of an applied rule (the constant part). */
  appliedSuffix: readonly string[];
  /** The whole applied wording of a rule without clauses. */
  appliedWithoutClauses: readonly string[];
  /** The wording of later base overrides (or payment terms) once this rule applied. */
  alreadyApplied: readonly string[];
  /** Guardrails: " is already at or above the minimum of …", " raised to the minimum of …". */
  guardrailSkip: readonly string[];
  guardrailApplied: readonly string[];
};

/** Which offerings each rule applies to (compile-scopes.ts). */
export type ScopeTables = {
  /** Offset of the rule's offering bitset in scopeBits, or -1 for every offering. */
  scope: Int32Array;
  scopeBits: Uint32Array;
  outOfScope: readonly string[];
};

/** The rules' conditions, and the wordings of the answers they meet or fail (compile-clauses.ts). */
export type ClauseTables = {
  /** Clauses of the rule at position p: clauseStart[p] .. clauseStart[p + 1]. */
  clauseStart: Int32Array;
  clauseFactor: Int32Array;
  /** Offset of the clause's slots in `reasons`: one per answer number (0 = unanswered). */
  clauseSlot: Int32Array;
  /** null = the answer matches; otherwise why the rule is skipped. Empty for very large books. */
  reasons: readonly (string | null)[];
  /** Very large books only: option numbers that match, by clause; wordings made on first use. */
  lazyMatches: readonly ReadonlySet<number>[] | null;
  lazyReasons: Map<number, string | null>;
  /**
   * Applied wordings by the clauses' answers, worded on first use (they depend only on the book
   * and the answers): a rule's wordings sit at appliedSlot[p] + the answers' ranks among the
   * clauses' matching options (mixed radix; one more digit value for an assumed answer where
   * the assumed option matches); -1 = keyed in a map instead.
   */
  appliedSlot: Int32Array;
  appliedWords: (string | undefined)[];
  /** By clause slot: the answer's rank among the clause's matching options (eager books only). */
  matchRank: Uint8Array;
  matchRadix: Int32Array;
  applied: (Map<number | string, string> | undefined)[];
  /** Whether a rule's map key fits a small integer (else a string key). */
  numericKey: Uint8Array;
  clauseRadix: Int32Array;
};

/** Factors by index: how answers become numbers, and what an unknown answer means (compile-factors.ts). */
export type FactorTables = {
  factors: readonly Factor[];
  factorIds: readonly string[];
  optionIds: readonly (readonly string[])[];
  optionLabels: readonly (readonly string[])[];
  optionNumbers: readonly ReadonlyMap<string, number>[];
  factorIndex: ReadonlyMap<string, number>;
  required: Uint8Array;
  /** Option number assumed for an unknown answer, 0 = requireInput. */
  assumed: Int32Array;
  assumedNote: readonly (string | undefined)[];
  missingInput: readonly string[];
  /** By factor, by option number: the option needs an inspection. */
  inspection: readonly Uint8Array[];
};

/** Offerings by index: their factors, base wording and conditions (compile-offerings.ts). */
export type OfferingTables = {
  offerings: readonly Offering[];
  offeringIndex: ReadonlyMap<string, number>;
  /** Factor indices the offering asks, in its order; and as a mask by factor index. */
  offeringFactors: readonly Int32Array[];
  asked: readonly Uint8Array[];
  baseReason: readonly string[];
  conditions: readonly (readonly string[])[];
};

export type Plan = RuleTables &
  RuleWordings &
  ScopeTables &
  ClauseTables &
  FactorTables &
  OfferingTables & {
    /** For the wordings made while pricing (amounts) and on first use (very large books). */
    wording: Wording;
  };

/** A book prepared for evaluation: lookups built once, rules flattened in evaluation order. */
export type CompiledBook = {
  artifact: BookArtifact;
  offerings: ReadonlyMap<string, Offering>;
  factors: ReadonlyMap<string, CompiledFactor>;
  plan: Plan;
};

/** The note of each assumed answer, by factor index; null when none was assumed. */
export type Notes = (string | undefined)[] | null;
