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

// Answers are looked up by index while pricing: each factor and option of the book gets a
// number at compile time, and a clause's options become a set of those numbers.
type CompiledClause = {
  factorId: string;
  factorIndex: number;
  /** Option numbers that match (1-based: 0 in an answer row means unanswered). */
  matches: Uint8Array;
  /** The factor's option ids by number - 1, to word a mismatch. */
  factorOptionIds: readonly string[];
  optionList: string;
  notAnswered: string;
  /** Reasons already worded, by the option number that failed the clause. */
  mismatch: (string | undefined)[];
};
type CompiledRule = {
  rule: Rule;
  offerings: ReadonlySet<string> | null;
  clauses: readonly CompiledClause[];
  /** Reasons worded once: out of scope, and "matched because" by the answers that matched. */
  outOfScope: string;
  matched: Map<number | string, string>;
};
type CompiledFactor = {
  factor: Factor;
  index: number;
  options: ReadonlyMap<string, Factor['options'][number]>;
  /** option id -> its number (1-based). */
  optionNumbers: ReadonlyMap<string, number>;
  optionIds: readonly string[];
};

/** A book prepared for evaluation: lookups built once, rules grouped by phase. */
export type CompiledBook = {
  artifact: BookArtifact;
  offerings: ReadonlyMap<string, Offering>;
  factors: ReadonlyMap<string, CompiledFactor>;
  rulesByPhase: ReadonlyMap<Phase, readonly CompiledRule[]>;
  factorCount: number;
};

const compiledCache = new WeakMap<BookArtifact, CompiledBook>();

export function compileBook(artifact: BookArtifact): CompiledBook {
  const cached = compiledCache.get(artifact);
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
  const rulesByPhase = new Map<Phase, CompiledRule[]>(PHASES.map((p) => [p, []]));
  for (const rule of artifact.rules) {
    rulesByPhase.get(rule.phase)!.push({
      rule,
      offerings: rule.offeringIds ? new Set(rule.offeringIds) : null,
      clauses: (rule.when ?? []).map((c) => {
        const factor = factors.get(c.factorId)!;
        const matches = new Uint8Array(factor.factor.options.length + 1);
        for (const optionId of c.optionIds) matches[factor.optionNumbers.get(optionId)!] = 1;
        return {
          factorId: c.factorId,
          factorIndex: factor.index,
          matches,
          factorOptionIds: factor.optionIds,
          optionList: c.optionIds.join(', '),
          notAnswered: `${c.factorId} is not answered`,
          mismatch: [],
        };
      }),
      outOfScope: `applies only to offerings ${(rule.offeringIds ?? []).join(', ')}`,
      matched: new Map(),
    });
  }
  const compiled: CompiledBook = {
    artifact,
    offerings: new Map(artifact.offerings.map((o) => [o.id, o])),
    factors,
    rulesByPhase,
    factorCount: artifact.factors.length,
  };
  compiledCache.set(artifact, compiled);
  return compiled;
}

/** Answers of the offering's factors, after the unknown-answer policy; or what is missing. */
export type ResolvedAnswers = { answers: Map<string, string>; notes: Map<string, string>; missing: string[] };

/**
 * Checks the inputs against the book. Returns a failure, or the resolved answers of the
 * offering's own factors (answers to factors the offering does not ask are ignored).
 */
export function resolveAnswers(
  book: CompiledBook,
  inputs: QuoteInputs,
): { failure: { code: FailureCode; message: string } } | { offering: Offering; resolved: ResolvedAnswers } | { missingOffering: true } {
  if (inputs.offeringId === '') return { missingOffering: true };
  const offering = book.offerings.get(inputs.offeringId);
  if (!offering) {
    return { failure: { code: 'unknown_offering', message: `Offering "${inputs.offeringId}" is not in this book.` } };
  }
  const failure = answerFailure(book, inputs.factors, Object.keys(inputs.factors));
  // Reported in sorted order, so that it does not depend on the order of JSON keys.
  if (failure) return { failure: answerFailure(book, inputs.factors, Object.keys(inputs.factors).sort())! };
  const answers = new Map<string, string>();
  const notes = new Map<string, string>();
  const missing: string[] = [];
  for (const factorId of offering.factorIds) {
    const { factor } = book.factors.get(factorId)!;
    const value = inputs.factors[factorId];
    if (typeof value === 'string') {
      answers.set(factorId, value);
    } else if (value === null && factor.whenUnknown.action === 'assume') {
      answers.set(factorId, factor.whenUnknown.optionId);
      notes.set(factorId, `unknown, assumed "${factor.whenUnknown.optionId}"`);
    } else if (factor.required) {
      missing.push(`factors.${factorId}`);
    }
  }
  return { offering, resolved: { answers, notes, missing } };
}

function answerFailure(
  book: CompiledBook,
  factors: QuoteInputs['factors'],
  factorIds: string[],
): { code: FailureCode; message: string } | null {
  for (const factorId of factorIds) {
    const compiled = book.factors.get(factorId);
    if (!compiled) return { code: 'unknown_factor', message: `Factor "${factorId}" is not in this book.` };
    const value = factors[factorId];
    if (value !== null && value !== undefined && !compiled.options.has(value)) {
      return { code: 'unknown_factor_option', message: `"${value}" is not an option of factor "${factorId}".` };
    }
  }
  return null;
}

/** Evaluates one offering with its answers. Every rule leaves one derivation entry. */
export function evaluate(book: CompiledBook, inputs: QuoteInputs): Outcome {
  const checked = resolveAnswers(book, inputs);
  if ('missingOffering' in checked) return { outcome: 'requires_input', missingInputs: ['offeringId'] };
  if ('failure' in checked) return { outcome: 'failed', failure: checked.failure };
  if (checked.resolved.missing.length > 0) {
    return { outcome: 'requires_input', missingInputs: checked.resolved.missing };
  }
  return price(book, checked.offering, checked.resolved);
}

class OutOfRange extends Error {}

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

/** Runs the phases for fully resolved answers. Exported for range evaluation over unknowns. */
export function price(book: CompiledBook, offering: Offering, resolved: ResolvedAnswers): Outcome {
  const { artifact } = book;
  const row = answerRow(book, resolved);
  const derivation: DerivationEntry[] = [];
  const lineItems: LineItem[] = [];
  let total = offering.basePriceMinor;

  // Skipped steps leave the total as it was, so only applied steps check its range.
  const record = (phase: Phase, rule: Rule | null, ruleType: string, status: 'applied' | 'skipped', reason: string, deltaMinor: number) => {
    if (status === 'applied' && total > MAX_MINOR) throw new OutOfRange();
    derivation.push(new Entry(derivation.length, phase, rule === null ? null : rule.id, ruleType, status, reason, deltaMinor, total));
  };

  try {
    const base: LineItem = { kind: 'base', label: offering.label, amountMinor: total, ruleId: null };
    lineItems.push(base);
    record('base', null, 'offeringBase', 'applied', `base price of "${offering.label}" is ${total}`, total);

    let overriddenBy: string | null = null;
    for (const c of book.rulesByPhase.get('baseOverride')!) {
      const rule = c.rule as Extract<Rule, { phase: 'baseOverride' }>;
      const skip = overriddenBy
        ? `base already overridden by rule "${overriddenBy}"`
        : whyNotApplicable(c, offering, row);
      if (skip) {
        record('baseOverride', rule, 'setBase', 'skipped', skip, 0);
        continue;
      }
      const delta = rule.priceMinor - total;
      total = rule.priceMinor;
      base.amountMinor = total;
      base.label = `${offering.label} (${rule.label})`;
      base.ruleId = rule.id;
      overriddenBy = rule.id;
      record('baseOverride', rule, 'setBase', 'applied', `${matchedBecause(c, resolved, row)}; base set to ${total}`, delta);
    }

    for (const phase of ['scopedModifier', 'conditionalModifier'] as const) {
      for (const c of book.rulesByPhase.get(phase)!) {
        const rule = c.rule as Extract<Rule, { phase: 'scopedModifier' | 'conditionalModifier' }>;
        const type = rule.adjustment.type;
        const skip = whyNotApplicable(c, offering, row);
        if (skip) {
          record(phase, rule, type, 'skipped', skip, 0);
          continue;
        }
        const raw =
          rule.adjustment.type === 'fixed'
            ? rule.adjustment.amountMinor
            : basisPointsOf(total, rule.adjustment.basisPoints);
        const delta = Math.max(raw, -total); // totals never go negative
        const how = rule.adjustment.type === 'fixed' ? `${raw}` : `${percent(rule.adjustment.basisPoints)} of ${total} = ${raw}`;
        total += delta;
        lineItems.push({ kind: delta >= 0 ? 'surcharge' : 'discount', label: rule.label, amountMinor: delta, ruleId: rule.id });
        const clamp = delta !== raw ? `, limited to ${delta} so the total stays at 0 or more` : '';
        record(phase, rule, type, 'applied', `${matchedBecause(c, resolved, row)}; adjusts by ${how}${clamp}`, delta);
      }
    }

    for (const c of book.rulesByPhase.get('discount')!) {
      const rule = c.rule as Extract<Rule, { phase: 'discount' }>;
      const skip = whyNotApplicable(c, offering, row);
      if (skip) {
        record('discount', rule, rule.reduction.type, 'skipped', skip, 0);
        continue;
      }
      const wanted =
        rule.reduction.type === 'fixed' ? rule.reduction.amountMinor : basisPointsOf(total, rule.reduction.basisPoints);
      const taken = Math.min(wanted, total);
      const how = rule.reduction.type === 'fixed' ? `${wanted}` : `${percent(rule.reduction.basisPoints)} of ${total} = ${wanted}`;
      total -= taken;
      lineItems.push({ kind: 'discount', label: rule.label, amountMinor: -taken, ruleId: rule.id });
      const clamp = taken !== wanted ? `, limited to ${taken} so the total stays at 0 or more` : '';
      record('discount', rule, rule.reduction.type, 'applied', `${matchedBecause(c, resolved, row)}; takes off ${how}${clamp}`, -taken);
    }

    for (const c of book.rulesByPhase.get('guardrail')!) {
      const rule = c.rule as Extract<Rule, { phase: 'guardrail' }>;
      const skip = whyNotApplicable(c, offering, row);
      if (skip) {
        record('guardrail', rule, rule.limit, 'skipped', skip, 0);
        continue;
      }
      const below = rule.limit === 'minimumTotal' && total < rule.amountMinor;
      const above = rule.limit === 'maximumTotal' && total > rule.amountMinor;
      if (!below && !above) {
        const bound = rule.limit === 'minimumTotal' ? 'at or above the minimum' : 'at or below the maximum';
        record('guardrail', rule, rule.limit, 'skipped', `total ${total} is already ${bound} of ${rule.amountMinor}`, 0);
        continue;
      }
      const delta = rule.amountMinor - total;
      total = rule.amountMinor;
      lineItems.push({ kind: 'guardrail', label: rule.label, amountMinor: delta, ruleId: rule.id });
      const what = below ? `raised to the minimum of ${total}` : `lowered to the maximum of ${total}`;
      record('guardrail', rule, rule.limit, 'applied', `total ${total - delta} ${what}`, delta);
    }

    let depositBasisPoints = 0;
    let termsBy: string | null = null;
    for (const c of book.rulesByPhase.get('paymentTerms')!) {
      const rule = c.rule as Extract<Rule, { phase: 'paymentTerms' }>;
      const skip = termsBy ? `payment terms already set by rule "${termsBy}"` : whyNotApplicable(c, offering, row);
      if (skip) {
        record('paymentTerms', rule, 'deposit', 'skipped', skip, 0);
        continue;
      }
      depositBasisPoints = rule.depositBasisPoints;
      termsBy = rule.id;
      record('paymentTerms', rule, 'deposit', 'applied', `${matchedBecause(c, resolved, row)}; deposit of ${percent(depositBasisPoints)}`, 0);
    }
    if (!termsBy) {
      record('paymentTerms', null, 'fullBalance', 'applied', 'no deposit rule applies; the whole total is the balance', 0);
    }

    const depositMinor = basisPointsOf(total, depositBasisPoints);
    return {
      outcome: 'succeeded',
      computation: {
        currency: artifact.currency,
        lineItems,
        totalMinor: total,
        paymentTerms: { depositBasisPoints, depositMinor, balanceDueMinor: total - depositMinor },
        conditions: [...artifact.conditions, ...offering.conditions],
        derivation,
      },
      inspections: inspectionsOf(book, offering, resolved),
    };
  } catch (error) {
    if (!(error instanceof OutOfRange)) throw error;
    return {
      outcome: 'failed',
      failure: { code: 'amount_out_of_range', message: `The price exceeds the largest supported amount (${MAX_MINOR}).` },
    };
  }
}

/** The resolved answers as option numbers by factor index (0 = unanswered). */
function answerRow(book: CompiledBook, resolved: ResolvedAnswers): Uint16Array {
  const row = new Uint16Array(book.factorCount);
  for (const [factorId, optionId] of resolved.answers) {
    const factor = book.factors.get(factorId)!;
    row[factor.index] = factor.optionNumbers.get(optionId)!;
  }
  return row;
}

function whyNotApplicable(c: CompiledRule, offering: Offering, row: Uint16Array): string | null {
  if (c.offerings && !c.offerings.has(offering.id)) return c.outOfScope;
  for (const clause of c.clauses) {
    const answer = row[clause.factorIndex];
    if (answer === 0) return clause.notAnswered;
    if (clause.matches[answer] !== 1) return clause.mismatch[answer] ?? wordMismatch(clause, answer);
  }
  return null;
}

function wordMismatch(clause: CompiledClause, answer: number): string {
  const reason = `${clause.factorId} is "${clause.factorOptionIds[answer - 1]}", not one of ${clause.optionList}`;
  clause.mismatch[answer] = reason;
  return reason;
}

// Reasons depend only on the rule and its clauses' answers, so each wording is built once,
// keyed by the answers' option numbers (and whether each was assumed).
function matchedBecause(c: CompiledRule, resolved: ResolvedAnswers, row: Uint16Array): string {
  if (c.clauses.length === 0) return c.offerings ? 'offering in scope' : 'applies to every quote';
  const noted = resolved.notes.size > 0;
  let key: number | string = 0;
  if (c.clauses.length <= 4) {
    let place = 1;
    for (const clause of c.clauses) {
      key += (row[clause.factorIndex] * 2 + (noted && resolved.notes.has(clause.factorId) ? 1 : 0)) * place;
      place *= 1024;
    }
  } else {
    key = c.clauses.map((clause) => `${row[clause.factorIndex]}${noted && resolved.notes.has(clause.factorId) ? '*' : ''}`).join(',');
  }
  let reason = c.matched.get(key);
  if (reason === undefined) {
    reason = c.clauses
      .map((clause) => {
        const note = resolved.notes.get(clause.factorId);
        return `${clause.factorId} is "${resolved.answers.get(clause.factorId)}"${note ? ` (${note})` : ''}`;
      })
      .join(' and ');
    c.matched.set(key, reason);
  }
  return reason;
}

function inspectionsOf(book: CompiledBook, offering: Offering, resolved: ResolvedAnswers): InspectionNeed[] {
  const needs: InspectionNeed[] = [];
  for (const factorId of offering.factorIds) {
    const optionId = resolved.answers.get(factorId);
    if (optionId === undefined) continue;
    const option = book.factors.get(factorId)!.options.get(optionId)!;
    if (option.requiresInspection) needs.push({ factorId, optionId, label: option.label });
  }
  return needs;
}

const percentWords = new Map<number, string>();
function percent(basisPoints: number): string {
  let words = percentWords.get(basisPoints);
  if (words === undefined) {
    words = wordPercent(basisPoints);
    if (percentWords.size < 100_000) percentWords.set(basisPoints, words);
  }
  return words;
}

function wordPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = Math.abs(basisPoints % 100);
  return `${basisPoints < 0 && whole === 0 ? '-' : ''}${whole}${fraction ? `.${String(fraction).padStart(2, '0')}` : ''}%`;
}
