import { MAX_MINOR, PHASES, type BookArtifact, type Factor, type Offering, type Phase, type Rule } from './book-artifact';
import { basisPointsOf } from './money';

/**
 * The pricing engine. Pure and deterministic: no I/O, no clock, no randomness. The same
 * compiled book and inputs always give the same outcome, to the last minor unit.
 */

export type QuoteInputs = {
  offeringId: string;
  /** factor id -> option id, or null for "answered as unknown". */
  factors: Record<string, string | null>;
};

export type LineItem = {
  kind: 'base' | 'surcharge' | 'discount' | 'guardrail';
  label: string;
  amountMinor: number;
  ruleId: string | null;
};

export type DerivationEntry = {
  sequence: number;
  phase: Phase;
  ruleId: string | null;
  ruleType: string | null;
  status: 'applied' | 'skipped';
  reason: string;
  deltaMinor: number;
  runningTotalMinor: number;
};

export type QuoteComputation = {
  currency: string;
  lineItems: LineItem[];
  totalMinor: number;
  paymentTerms: { depositBasisPoints: number; depositMinor: number; balanceDueMinor: number };
  conditions: string[];
  derivation: DerivationEntry[];
};

export type FailureCode =
  | 'unknown_offering'
  | 'unknown_factor'
  | 'unknown_factor_option'
  | 'amount_out_of_range';

/** A chosen option that needs a site visit before the price is firm. */
export type InspectionNeed = { factorId: string; optionId: string; label: string };

export type Outcome =
  | { outcome: 'succeeded'; computation: QuoteComputation; inspections: InspectionNeed[] }
  | { outcome: 'requires_input'; missingInputs: string[] }
  | { outcome: 'failed'; failure: { code: FailureCode; message: string } };

// A compiled book is a plan: the rules in evaluation order (phase by phase, then book order)
// as flat arrays, every constant wording built once, and answers looked up by number. Pricing
// then walks compact arrays instead of the artifact's objects, which keeps large books fast.
type CompiledFactor = {
  factor: Factor;
  index: number;
  options: ReadonlyMap<string, Factor['options'][number]>;
  /** option id -> its number (1-based: 0 in an answer row means unanswered). */
  optionNumbers: ReadonlyMap<string, number>;
  optionIds: readonly string[];
};

/** Rules by position in evaluation order; a rule's derivation entry has sequence position + 1. */
type Plan = {
  ruleCount: number;
  /** Start positions of baseOverride, scopedModifier, conditionalModifier, discount, guardrail, paymentTerms, and the end. */
  phaseStart: readonly number[];
  phases: readonly Phase[];
  ids: readonly string[];
  labels: readonly string[];
  ruleTypes: readonly string[];
  /** priceMinor, amountMinor, basisPoints or depositBasisPoints. */
  values: readonly number[];
  /** 1 = a percentage (modifiers, discounts); for guardrails 1 = minimumTotal. */
  flags: Uint8Array;
  /** Offset of the rule's offering bitset in scopeBits, or -1 for every offering. */
  scope: Int32Array;
  scopeBits: Uint32Array;
  outOfScope: readonly string[];
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
  /** Wording after "matched because …" of an applied rule (the constant part). */
  appliedSuffix: readonly string[];
  /** The whole applied wording of a rule without clauses. */
  appliedWithoutClauses: readonly string[];
  /** The wording of later base overrides (or payment terms) once this rule applied. */
  alreadyApplied: readonly string[];
  /** Guardrails: " is already at or above the minimum of …", " raised to the minimum of …". */
  guardrailSkip: readonly string[];
  guardrailApplied: readonly string[];
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
  offerings: readonly Offering[];
  offeringIndex: ReadonlyMap<string, number>;
  /** Factor indices the offering asks, in its order; and as a mask by factor index. */
  offeringFactors: readonly Int32Array[];
  asked: readonly Uint8Array[];
  baseReason: readonly string[];
  conditions: readonly (readonly string[])[];
  /** For the wordings made while pricing (amounts) and on first use (very large books). */
  wording: Wording;
  factors: readonly Factor[];
};

/** A book prepared for evaluation: lookups built once, rules flattened in evaluation order. */
export type CompiledBook = {
  artifact: BookArtifact;
  offerings: ReadonlyMap<string, Offering>;
  factors: ReadonlyMap<string, CompiledFactor>;
  plan: Plan;
};

type FactorOption = Factor['options'][number];

/**
 * How reasons are worded. Receipts use RECEIPT_WORDING: its text is part of every stored receipt
 * (ids, amounts in minor units) and must never change (evaluate.golden.test.ts). Views for people
 * compile a book with their own wording (labels, formatted money): the same steps, other words.
 */
export type Wording = {
  factor: (factor: Factor) => string;
  option: (factor: Factor, option: FactorOption) => string;
  /** The options a clause accepts, after "not one of". */
  optionList: (factor: Factor, options: readonly FactorOption[]) => string;
  offering: (offering: Offering) => string;
  offeringList: (offerings: readonly Offering[]) => string;
  rule: (rule: Rule) => string;
  money: (amountMinor: number) => string;
  percent: (basisPoints: number) => string;
};

export const RECEIPT_WORDING: Wording = {
  factor: (f) => f.id,
  option: (_, o) => `"${o.id}"`,
  optionList: (_, options) => options.map((o) => o.id).join(', '),
  offering: (o) => `"${o.label}"`,
  offeringList: (offerings) => offerings.map((o) => o.id).join(', '),
  rule: (r) => `rule "${r.id}"`,
  money: (amountMinor) => `${amountMinor}`,
  percent: (basisPoints) => percent(basisPoints),
};

/** Above this many clause slots, skip reasons are worded on first use instead of at compile time. */
const EAGER_REASON_SLOTS = 1 << 18;
/** Answer keys of applied wordings stay small integers below this. */
const NUMERIC_KEY_LIMIT = 1 << 30;
/** Slots for applied wordings: per rule, and for the whole book (beyond: keyed in maps). */
const RULE_APPLIED_SLOTS = 1 << 12;
const BOOK_APPLIED_SLOTS = 1 << 19;

const compiledCache = new WeakMap<BookArtifact, CompiledBook>();

export function compileBook(artifact: BookArtifact, wording: Wording = RECEIPT_WORDING): CompiledBook {
  // Receipts' compilations are kept; another wording (a view's) is compiled afresh each time.
  const cached = wording === RECEIPT_WORDING ? compiledCache.get(artifact) : undefined;
  if (cached) return cached;
  const factors = new Map<string, CompiledFactor>(
    artifact.factors.map((f, index) => [
      f.id,
      {
        factor: f,
        index,
        options: new Map(f.options.map((o) => [o.id, o])),
        optionNumbers: new Map(f.options.map((o, i) => [o.id, i + 1])),
        optionIds: f.options.map((o) => o.id),
      },
    ]),
  );
  const compiled: CompiledBook = {
    artifact,
    offerings: new Map(artifact.offerings.map((o) => [o.id, o])),
    factors,
    plan: compilePlan(artifact, factors, wording),
  };
  if (wording === RECEIPT_WORDING) compiledCache.set(artifact, compiled);
  return compiled;
}

function compilePlan(artifact: BookArtifact, factors: ReadonlyMap<string, CompiledFactor>, w: Wording): Plan {
  const rules = PHASES.slice(1).flatMap((phase) => artifact.rules.filter((r) => r.phase === phase));
  const phaseStart = PHASES.slice(1).map((phase) => rules.findIndex((r) => PHASES.indexOf(r.phase) >= PHASES.indexOf(phase)));
  phaseStart.push(rules.length);
  for (let i = phaseStart.length - 2; i >= 0; i--) if (phaseStart[i] < 0) phaseStart[i] = phaseStart[i + 1];

  const offeringIndex = new Map(artifact.offerings.map((o, i) => [o.id, i]));
  const scopeWords = Math.ceil(artifact.offerings.length / 32);
  const scopedRules = rules.filter((r) => r.offeringIds).length;
  const scopeBits = new Uint32Array(scopedRules * scopeWords);
  const scope = new Int32Array(rules.length);
  const clauseCount = rules.reduce((n, r) => n + (r.when?.length ?? 0), 0);
  const clauseStart = new Int32Array(rules.length + 1);
  const clauseFactor = new Int32Array(clauseCount);
  const clauseSlot = new Int32Array(clauseCount);
  const clauseRadix = new Int32Array(clauseCount);
  const numericKey = new Uint8Array(rules.length);
  const flags = new Uint8Array(rules.length);
  const notAnswered = artifact.factors.map((f) => `${w.factor(f)} is not answered`);
  let slots = 0;
  for (const r of rules) for (const c of r.when ?? []) slots += factors.get(c.factorId)!.optionIds.length + 1;
  const eager = slots <= EAGER_REASON_SLOTS;
  const reasons: (string | null)[] = [];
  const lazyMatches: Set<number>[] = [];
  const matchRank = new Uint8Array(eager ? slots : 0).fill(255);
  const matchRadix = new Int32Array(clauseCount);
  const appliedSlot = new Int32Array(rules.length).fill(-1);
  let appliedSlots = 0;

  let scoped = 0;
  let clause = 0;
  let slot = 0;
  rules.forEach((rule, position) => {
    if (rule.offeringIds) {
      scope[position] = scoped * scopeWords;
      for (const id of rule.offeringIds) {
        const i = offeringIndex.get(id)!;
        scopeBits[scoped * scopeWords + (i >>> 5)] |= 1 << (i & 31);
      }
      scoped++;
    } else {
      scope[position] = -1;
    }
    clauseStart[position] = clause;
    let keySpace = 1;
    let matchSpace = 1;
    for (const c of rule.when ?? []) {
      const factor = factors.get(c.factorId)!;
      const optionList = w.optionList(factor.factor, c.optionIds.map((id) => factor.options.get(id)!));
      const matches = new Set(c.optionIds.map((id) => factor.optionNumbers.get(id)!));
      clauseFactor[clause] = factor.index;
      clauseSlot[clause] = slot;
      clauseRadix[clause] = (factor.optionIds.length + 1) * 2;
      keySpace *= clauseRadix[clause];
      const assumed = factor.factor.whenUnknown.action === 'assume' ? factor.optionNumbers.get(factor.factor.whenUnknown.optionId)! : 0;
      matchRadix[clause] = matches.size + (matches.has(assumed) ? 1 : 0);
      matchSpace *= matchRadix[clause];
      if (eager) {
        [...matches].sort((a, b) => a - b).forEach((number, rank) => (matchRank[slot + number] = rank));
        reasons.push(notAnswered[factor.index]);
        factor.optionIds.forEach((optionId, i) => {
          reasons.push(matches.has(i + 1) ? null : `${w.factor(factor.factor)} is ${w.option(factor.factor, factor.options.get(optionId)!)}, not one of ${optionList}`);
        });
      } else {
        lazyMatches.push(matches);
      }
      slot += factor.optionIds.length + 1;
      clause++;
    }
    numericKey[position] = keySpace < NUMERIC_KEY_LIMIT ? 1 : 0;
    if (eager && rule.when && matchSpace <= RULE_APPLIED_SLOTS && appliedSlots + matchSpace <= BOOK_APPLIED_SLOTS) {
      appliedSlot[position] = appliedSlots;
      appliedSlots += matchSpace;
    }
    if (rule.phase === 'scopedModifier' || rule.phase === 'conditionalModifier') {
      flags[position] = rule.adjustment.type === 'percent' ? 1 : 0;
    } else if (rule.phase === 'discount') {
      flags[position] = rule.reduction.type === 'percent' ? 1 : 0;
    } else if (rule.phase === 'guardrail') {
      flags[position] = rule.limit === 'minimumTotal' ? 1 : 0;
    }
  });
  clauseStart[rules.length] = clause;

  const value = (rule: Rule): number => {
    switch (rule.phase) {
      case 'baseOverride':
        return rule.priceMinor;
      case 'scopedModifier':
      case 'conditionalModifier':
        return rule.adjustment.type === 'fixed' ? rule.adjustment.amountMinor : rule.adjustment.basisPoints;
      case 'discount':
        return rule.reduction.type === 'fixed' ? rule.reduction.amountMinor : rule.reduction.basisPoints;
      case 'guardrail':
        return rule.amountMinor;
      case 'paymentTerms':
        return rule.depositBasisPoints;
    }
  };
  const ruleType = (rule: Rule): string => {
    switch (rule.phase) {
      case 'baseOverride':
        return 'setBase';
      case 'scopedModifier':
      case 'conditionalModifier':
        return rule.adjustment.type;
      case 'discount':
        return rule.reduction.type;
      case 'guardrail':
        return rule.limit;
      case 'paymentTerms':
        return 'deposit';
    }
  };
  const appliedSuffix = (rule: Rule): string => {
    switch (rule.phase) {
      case 'baseOverride':
        return `; base set to ${w.money(rule.priceMinor)}`;
      case 'scopedModifier':
      case 'conditionalModifier':
        return rule.adjustment.type === 'fixed'
          ? `; adjusts by ${w.money(rule.adjustment.amountMinor)}`
          : `; adjusts by ${w.percent(rule.adjustment.basisPoints)} of `;
      case 'discount':
        return rule.reduction.type === 'fixed'
          ? `; takes off ${w.money(rule.reduction.amountMinor)}`
          : `; takes off ${w.percent(rule.reduction.basisPoints)} of `;
      case 'guardrail':
        return '';
      case 'paymentTerms':
        return `; deposit of ${w.percent(rule.depositBasisPoints)}`;
    }
  };
  const minimum = (rule: Rule) => rule.phase === 'guardrail' && rule.limit === 'minimumTotal';

  return {
    ruleCount: rules.length,
    phaseStart,
    phases: rules.map((r) => r.phase),
    ids: rules.map((r) => r.id),
    labels: rules.map((r) => r.label),
    ruleTypes: rules.map(ruleType),
    values: rules.map(value),
    flags,
    scope,
    scopeBits,
    outOfScope: rules.map((r) => `applies only to offerings ${w.offeringList((r.offeringIds ?? []).map((id) => artifact.offerings[offeringIndex.get(id)!]))}`),
    clauseStart,
    clauseFactor,
    clauseSlot,
    reasons,
    lazyMatches: eager ? null : lazyMatches,
    lazyReasons: new Map(),
    appliedSuffix: rules.map(appliedSuffix),
    appliedWithoutClauses: rules.map((r) => `${r.offeringIds ? 'offering in scope' : 'applies to every quote'}${appliedSuffix(r)}`),
    alreadyApplied: rules.map((r) =>
      r.phase === 'paymentTerms' ? `payment terms already set by ${w.rule(r)}` : `base already overridden by ${w.rule(r)}`,
    ),
    guardrailSkip: rules.map((r) =>
      r.phase !== 'guardrail' ? '' : ` is already ${minimum(r) ? 'at or above the minimum' : 'at or below the maximum'} of ${w.money(r.amountMinor)}`,
    ),
    guardrailApplied: rules.map((r) =>
      r.phase !== 'guardrail' ? '' : ` ${minimum(r) ? 'raised to the minimum' : 'lowered to the maximum'} of ${w.money(r.amountMinor)}`,
    ),
    appliedSlot,
    appliedWords: Array.from({ length: appliedSlots }, () => undefined),
    matchRank,
    matchRadix,
    applied: rules.map(() => undefined),
    numericKey,
    clauseRadix,
    factorIds: artifact.factors.map((f) => f.id),
    optionIds: artifact.factors.map((f) => f.options.map((o) => o.id)),
    optionLabels: artifact.factors.map((f) => f.options.map((o) => o.label)),
    optionNumbers: artifact.factors.map((f) => factors.get(f.id)!.optionNumbers),
    factorIndex: new Map(artifact.factors.map((f, i) => [f.id, i])),
    required: Uint8Array.from(artifact.factors, (f) => (f.required ? 1 : 0)),
    assumed: Int32Array.from(artifact.factors, (f) =>
      f.whenUnknown.action === 'assume' ? factors.get(f.id)!.optionNumbers.get(f.whenUnknown.optionId)! : 0,
    ),
    assumedNote: artifact.factors.map((f) =>
      f.whenUnknown.action === 'assume' ? `unknown, assumed ${w.option(f, f.options.find((o) => o.id === (f.whenUnknown as { optionId: string }).optionId)!)}` : undefined,
    ),
    missingInput: artifact.factors.map((f) => `factors.${f.id}`),
    inspection: artifact.factors.map((f) => Uint8Array.from([0, ...f.options.map((o) => (o.requiresInspection ? 1 : 0))])),
    offerings: artifact.offerings,
    offeringIndex,
    offeringFactors: artifact.offerings.map((o) => Int32Array.from(o.factorIds, (id) => factors.get(id)!.index)),
    asked: artifact.offerings.map((o) => {
      const mask = new Uint8Array(artifact.factors.length);
      for (const id of o.factorIds) mask[factors.get(id)!.index] = 1;
      return mask;
    }),
    baseReason: artifact.offerings.map((o) => `base price of ${w.offering(o)} is ${w.money(o.basePriceMinor)}`),
    conditions: artifact.offerings.map((o) => [...artifact.conditions, ...o.conditions]),
    wording: w,
    factors: artifact.factors,
  };
}

/** Answers of the offering's factors, after the unknown-answer policy; or what is missing. */
export type ResolvedAnswers = { answers: Map<string, string>; notes: Map<string, string>; missing: string[] };

/**
 * The first answer, in sorted factor order, that names a factor or an option the book does not
 * have; null when there is none. Null (unknown) answers are fine here. `noun` is what the caller's
 * clients call a factor (the account surface says "selection").
 */
export function answerFailure(
  book: CompiledBook,
  factors: QuoteInputs['factors'],
  noun: 'factor' | 'selection' = 'factor',
): { code: FailureCode; message: string } | null {
  for (const factorId of Object.keys(factors).sort()) {
    const compiled = book.factors.get(factorId);
    if (!compiled) return { code: 'unknown_factor', message: `${noun === 'factor' ? 'Factor' : 'Selection'} "${factorId}" is not in this book.` };
    const value = factors[factorId];
    if (value !== null && value !== undefined && !compiled.options.has(value)) {
      return { code: 'unknown_factor_option', message: `"${value}" is not an option of ${noun} "${factorId}".` };
    }
  }
  return null;
}

/**
 * Evaluates one offering with its answers. Every rule leaves one derivation entry.
 * Failures are checked before missing inputs; answers to factors the offering does not ask
 * are ignored.
 */
export function evaluate(book: CompiledBook, inputs: QuoteInputs): Outcome {
  if (inputs.offeringId === '') return { outcome: 'requires_input', missingInputs: ['offeringId'] };
  const plan = book.plan;
  const offeringIndex = plan.offeringIndex.get(inputs.offeringId);
  if (offeringIndex === undefined) {
    return {
      outcome: 'failed',
      failure: { code: 'unknown_offering', message: `Offering "${inputs.offeringId}" is not in this book.` },
    };
  }
  const given = inputs.factors;
  const asked = plan.asked[offeringIndex];
  const row = new Uint16Array(plan.factorIds.length);
  for (const factorId of Object.keys(given)) {
    const index = plan.factorIndex.get(factorId);
    const value = given[factorId];
    const number = index === undefined || value === null || value === undefined ? 0 : plan.optionNumbers[index].get(value);
    if (index === undefined || number === undefined) {
      // Reported in sorted order, so that it does not depend on the order of JSON keys.
      return { outcome: 'failed', failure: answerFailure(book, given)! };
    }
    if (asked[index] === 1) row[index] = number;
  }
  let notes: (string | undefined)[] | null = null;
  let missing: string[] | null = null;
  for (const index of plan.offeringFactors[offeringIndex]) {
    if (row[index] !== 0) continue;
    if (given[plan.factorIds[index]] === null && plan.assumed[index] !== 0) {
      row[index] = plan.assumed[index];
      (notes ??= [])[index] = plan.assumedNote[index];
    } else if (plan.required[index] === 1) {
      (missing ??= []).push(plan.missingInput[index]);
    }
  }
  if (missing !== null) return { outcome: 'requires_input', missingInputs: missing };
  return priceRow(book, offeringIndex, row, notes, true);
}

/** The note of each assumed answer, by factor index; null when none was assumed. */
type Notes = (string | undefined)[] | null;

/** Runs the phases for fully resolved answers. Exported for range evaluation over unknowns. */
export function price(book: CompiledBook, offering: Offering, resolved: ResolvedAnswers): Outcome {
  const plan = book.plan;
  const row = new Uint16Array(plan.factorIds.length);
  for (const [factorId, optionId] of resolved.answers) {
    const factor = book.factors.get(factorId)!;
    row[factor.index] = factor.optionNumbers.get(optionId)!;
  }
  let notes: (string | undefined)[] | null = null;
  // Wordings are memoised for the notes evaluate() makes; any other note is worded every time.
  let memoise = true;
  for (const [factorId, note] of resolved.notes) {
    const index = plan.factorIndex.get(factorId);
    if (index === undefined) continue;
    (notes ??= [])[index] = note;
    if (note !== plan.assumedNote[index] || row[index] !== plan.assumed[index]) memoise = false;
  }
  return priceRow(book, plan.offeringIndex.get(offering.id)!, row, notes, memoise);
}

/** A derivation entry; a class so that every entry shares one shape (they are made by the thousand). */
class Entry implements DerivationEntry {
  constructor(
    readonly sequence: number,
    readonly phase: Phase,
    readonly ruleId: string | null,
    readonly ruleType: string | null,
    readonly status: 'applied' | 'skipped',
    readonly reason: string,
    readonly deltaMinor: number,
    readonly runningTotalMinor: number,
  ) {}
}

function outOfRange(): Outcome {
  return {
    outcome: 'failed',
    failure: { code: 'amount_out_of_range', message: `The price exceeds the largest supported amount (${MAX_MINOR}).` },
  };
}

// Skipped steps leave the total as it was, so only applied steps check its range.
function priceRow(book: CompiledBook, offeringIndex: number, row: Uint16Array, notes: Notes, memoise: boolean): Outcome {
  const plan = book.plan;
  const offering = plan.offerings[offeringIndex];
  const { phaseStart, ids, values, flags } = plan;
  const ruleCount = plan.ruleCount;
  const scopeWord = offeringIndex >>> 5;
  const scopeBit = 1 << (offeringIndex & 31);
  // One entry per rule, the base entry and perhaps the full-balance entry: sized once.
  const derivation: DerivationEntry[] = new Array(ruleCount + 2);
  let total = offering.basePriceMinor;
  const base: LineItem = { kind: 'base', label: offering.label, amountMinor: total, ruleId: null };
  const lineItems: LineItem[] = [base];
  if (total > MAX_MINOR) return outOfRange();
  derivation[0] = new Entry(0, 'base', null, 'offeringBase', 'applied', plan.baseReason[offeringIndex], total, total);

  let overriddenBy = -1;
  for (let p = phaseStart[0]; p < phaseStart[1]; p++) {
    const skip = overriddenBy >= 0 ? plan.alreadyApplied[overriddenBy] : whyNotApplicable(plan, p, scopeWord, scopeBit, row);
    if (skip !== null) {
      derivation[p + 1] = new Entry(p + 1, 'baseOverride', ids[p], 'setBase', 'skipped', skip, 0, total);
      continue;
    }
    const delta = values[p] - total;
    total = values[p];
    base.amountMinor = total;
    base.label = `${offering.label} (${plan.labels[p]})`;
    base.ruleId = ids[p];
    overriddenBy = p;
    if (total > MAX_MINOR) return outOfRange();
    derivation[p + 1] = new Entry(p + 1, 'baseOverride', ids[p], 'setBase', 'applied', appliedReason(plan, p, row, notes, memoise), delta, total);
  }

  for (let p = phaseStart[1]; p < phaseStart[3]; p++) {
    const skip = whyNotApplicable(plan, p, scopeWord, scopeBit, row);
    if (skip !== null) {
      derivation[p + 1] = new Entry(p + 1, plan.phases[p], ids[p], plan.ruleTypes[p], 'skipped', skip, 0, total);
      continue;
    }
    const isPercent = flags[p] === 1;
    const raw = isPercent ? basisPointsOf(total, values[p]) : values[p];
    const delta = Math.max(raw, -total); // totals never go negative
    const before = total;
    total += delta;
    lineItems.push({ kind: delta >= 0 ? 'surcharge' : 'discount', label: plan.labels[p], amountMinor: delta, ruleId: ids[p] });
    if (total > MAX_MINOR) return outOfRange();
    let reason = appliedReason(plan, p, row, notes, memoise);
    if (isPercent) reason = `${reason}${plan.wording.money(before)} = ${plan.wording.money(raw)}`;
    if (delta !== raw) reason = `${reason}, limited to ${plan.wording.money(delta)} so the total stays at 0 or more`;
    derivation[p + 1] = new Entry(p + 1, plan.phases[p], ids[p], plan.ruleTypes[p], 'applied', reason, delta, total);
  }

  for (let p = phaseStart[3]; p < phaseStart[4]; p++) {
    const skip = whyNotApplicable(plan, p, scopeWord, scopeBit, row);
    if (skip !== null) {
      derivation[p + 1] = new Entry(p + 1, 'discount', ids[p], plan.ruleTypes[p], 'skipped', skip, 0, total);
      continue;
    }
    const isPercent = flags[p] === 1;
    const wanted = isPercent ? basisPointsOf(total, values[p]) : values[p];
    const taken = Math.min(wanted, total);
    const before = total;
    total -= taken;
    lineItems.push({ kind: 'discount', label: plan.labels[p], amountMinor: -taken, ruleId: ids[p] });
    if (total > MAX_MINOR) return outOfRange();
    let reason = appliedReason(plan, p, row, notes, memoise);
    if (isPercent) reason = `${reason}${plan.wording.money(before)} = ${plan.wording.money(wanted)}`;
    if (taken !== wanted) reason = `${reason}, limited to ${plan.wording.money(taken)} so the total stays at 0 or more`;
    derivation[p + 1] = new Entry(p + 1, 'discount', ids[p], plan.ruleTypes[p], 'applied', reason, -taken, total);
  }

  for (let p = phaseStart[4]; p < phaseStart[5]; p++) {
    const skip = whyNotApplicable(plan, p, scopeWord, scopeBit, row);
    if (skip !== null) {
      derivation[p + 1] = new Entry(p + 1, 'guardrail', ids[p], plan.ruleTypes[p], 'skipped', skip, 0, total);
      continue;
    }
    const amount = values[p];
    const minimum = flags[p] === 1;
    if (minimum ? !(total < amount) : !(total > amount)) {
      const reason = `total ${plan.wording.money(total)}${plan.guardrailSkip[p]}`;
      derivation[p + 1] = new Entry(p + 1, 'guardrail', ids[p], plan.ruleTypes[p], 'skipped', reason, 0, total);
      continue;
    }
    const delta = amount - total;
    total = amount;
    lineItems.push({ kind: 'guardrail', label: plan.labels[p], amountMinor: delta, ruleId: ids[p] });
    if (total > MAX_MINOR) return outOfRange();
    const reason = `total ${plan.wording.money(total - delta)}${plan.guardrailApplied[p]}`;
    derivation[p + 1] = new Entry(p + 1, 'guardrail', ids[p], plan.ruleTypes[p], 'applied', reason, delta, total);
  }

  let depositBasisPoints = 0;
  let termsBy = -1;
  for (let p = phaseStart[5]; p < phaseStart[6]; p++) {
    const skip = termsBy >= 0 ? plan.alreadyApplied[termsBy] : whyNotApplicable(plan, p, scopeWord, scopeBit, row);
    if (skip !== null) {
      derivation[p + 1] = new Entry(p + 1, 'paymentTerms', ids[p], 'deposit', 'skipped', skip, 0, total);
      continue;
    }
    depositBasisPoints = values[p];
    termsBy = p;
    if (total > MAX_MINOR) return outOfRange();
    derivation[p + 1] = new Entry(p + 1, 'paymentTerms', ids[p], 'deposit', 'applied', appliedReason(plan, p, row, notes, memoise), 0, total);
  }
  if (termsBy < 0) {
    if (total > MAX_MINOR) return outOfRange();
    derivation[ruleCount + 1] = new Entry(
      ruleCount + 1, 'paymentTerms', null, 'fullBalance', 'applied', 'no deposit rule applies; the whole total is the balance', 0, total,
    );
  } else {
    derivation.length = ruleCount + 1;
  }

  const depositMinor = basisPointsOf(total, depositBasisPoints);
  return {
    outcome: 'succeeded',
    computation: {
      currency: book.artifact.currency,
      lineItems,
      totalMinor: total,
      paymentTerms: { depositBasisPoints, depositMinor, balanceDueMinor: total - depositMinor },
      conditions: plan.conditions[offeringIndex].slice(),
      derivation,
    },
    inspections: inspectionsOf(plan, offeringIndex, row),
  };
}

/** Why the rule at position p does not apply (out of scope, or the first clause that fails), or null. */
function whyNotApplicable(plan: Plan, p: number, scopeWord: number, scopeBit: number, row: Uint16Array): string | null {
  const scope = plan.scope[p];
  if (scope >= 0 && (plan.scopeBits[scope + scopeWord] & scopeBit) === 0) return plan.outOfScope[p];
  const end = plan.clauseStart[p + 1];
  for (let k = plan.clauseStart[p]; k < end; k++) {
    const slot = plan.clauseSlot[k] + row[plan.clauseFactor[k]];
    let reason = plan.reasons[slot];
    if (reason === undefined) reason = lazyReason(plan, k, slot);
    if (reason !== null) return reason;
  }
  return null;
}

function lazyReason(plan: Plan, clause: number, slot: number): string | null {
  let reason = plan.lazyReasons.get(slot);
  if (reason === undefined) {
    const w = plan.wording;
    const factor = plan.factors[plan.clauseFactor[clause]];
    const answer = slot - plan.clauseSlot[clause];
    const matches = plan.lazyMatches![clause];
    reason =
      answer === 0
        ? `${w.factor(factor)} is not answered`
        : matches.has(answer)
          ? null
          : `${w.factor(factor)} is ${w.option(factor, factor.options[answer - 1])}, not one of ${w.optionList(factor, [...matches].map((n) => factor.options[n - 1]))}`;
    plan.lazyReasons.set(slot, reason);
  }
  return reason;
}

// An applied wording depends only on the rule and its clauses' answers (and whether each was
// assumed), so each is built once, keyed by the answers' option numbers.
function appliedReason(plan: Plan, p: number, row: Uint16Array, notes: Notes, memoise: boolean): string {
  const start = plan.clauseStart[p];
  const end = plan.clauseStart[p + 1];
  if (start === end) return plan.appliedWithoutClauses[p];
  if (!memoise) return wordApplied(plan, p, row, notes);
  const at = plan.appliedSlot[p];
  if (at >= 0) {
    let index = at;
    let place = 1;
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      const rank = notes !== null && notes[factor] !== undefined ? plan.matchRadix[k] - 1 : plan.matchRank[plan.clauseSlot[k] + row[factor]];
      index += rank * place;
      place *= plan.matchRadix[k];
    }
    let reason = plan.appliedWords[index];
    if (reason === undefined) plan.appliedWords[index] = reason = wordApplied(plan, p, row, notes);
    return reason;
  }
  let key: number | string = 0;
  if (plan.numericKey[p] === 1) {
    let place = 1;
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      key += (row[factor] * 2 + (notes !== null && notes[factor] !== undefined ? 1 : 0)) * place;
      place *= plan.clauseRadix[k];
    }
  } else {
    for (let k = start; k < end; k++) {
      const factor = plan.clauseFactor[k];
      key = `${key},${row[factor]}${notes !== null && notes[factor] !== undefined ? '*' : ''}`;
    }
  }
  let memo = plan.applied[p];
  if (memo === undefined) plan.applied[p] = memo = new Map();
  let reason = memo.get(key);
  if (reason === undefined) memo.set(key, (reason = wordApplied(plan, p, row, notes)));
  return reason;
}

function wordApplied(plan: Plan, p: number, row: Uint16Array, notes: Notes): string {
  const words: string[] = [];
  for (let k = plan.clauseStart[p]; k < plan.clauseStart[p + 1]; k++) {
    const factor = plan.factors[plan.clauseFactor[k]];
    const note = notes === null ? undefined : notes[plan.clauseFactor[k]];
    words.push(`${plan.wording.factor(factor)} is ${plan.wording.option(factor, factor.options[row[plan.clauseFactor[k]] - 1])}${note ? ` (${note})` : ''}`);
  }
  return `${words.join(' and ')}${plan.appliedSuffix[p]}`;
}

function inspectionsOf(plan: Plan, offeringIndex: number, row: Uint16Array): InspectionNeed[] {
  const needs: InspectionNeed[] = [];
  for (const index of plan.offeringFactors[offeringIndex]) {
    const answer = row[index];
    if (answer === 0 || plan.inspection[index][answer] === 0) continue;
    const optionId = plan.optionIds[index][answer - 1];
    needs.push({ factorId: plan.factorIds[index], optionId, label: plan.optionLabels[index][answer - 1] });
  }
  return needs;
}

function percent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = Math.abs(basisPoints % 100);
  return `${basisPoints < 0 && whole === 0 ? '-' : ''}${whole}${fraction ? `.${String(fraction).padStart(2, '0')}` : ''}%`;
}
