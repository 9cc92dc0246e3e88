import type { Phase } from './phases';
import { basisPointsOf } from './money';
import type { DerivationEntry, LineItem } from './outcome';
import { PRICED_PHASES, type Plan } from './plan';

// What a rule that applies does to the quote, one step per kind of phase. A step takes the
// total before the rule, records the rule's derivation entry and returns the total after it
// (price-row.ts checks its range). Reasons that start with the rule's applied wording
// (rule-reasons.ts) get it from the caller.

/**
 * A derivation entry; a class so that every entry shares one shape (they are made by the
 * thousand). Its fields are declared in key order, and so are the keys of every object of a
 * receipt: a receipt's canonical JSON (what it is signed over) is then its JSON.stringify
 * (lib/hash/canonical-json.ts takes that fast path; a test keeps receipts on it). `declare`: the
 * fields are only typed here, so that the constructor's assignments make them, once, in this order
 * (a class field would define each as undefined first: measurably slower per entry).
 */
export class Entry implements DerivationEntry {
  declare readonly deltaMinor: number;
  declare readonly phase: Phase;
  declare readonly reason: string;
  declare readonly ruleId: string | null;
  declare readonly ruleType: string | null;
  declare readonly runningTotalMinor: number;
  declare readonly sequence: number;
  declare readonly status: 'applied' | 'skipped';

  constructor(
    sequence: number,
    phase: Phase,
    ruleId: string | null,
    ruleType: string | null,
    status: 'applied' | 'skipped',
    reason: string,
    deltaMinor: number,
    runningTotalMinor: number,
  ) {
    this.deltaMinor = deltaMinor;
    this.phase = phase;
    this.reason = reason;
    this.ruleId = ruleId;
    this.ruleType = ruleType;
    this.runningTotalMinor = runningTotalMinor;
    this.sequence = sequence;
    this.status = status;
  }
}

export const SET_BASE = 0;
export const ADJUST = 1;
export const TAKE_OFF = 2;
export const LIMIT = 3;
export const SET_DEPOSIT = 4;
type Step = typeof SET_BASE | typeof ADJUST | typeof TAKE_OFF | typeof LIMIT | typeof SET_DEPOSIT;

const STEP_OF_PHASE: Record<(typeof PRICED_PHASES)[number], Step> = {
  baseOverride: SET_BASE,
  scopedModifier: ADJUST,
  conditionalModifier: ADJUST,
  discount: TAKE_OFF,
  guardrail: LIMIT,
  paymentTerms: SET_DEPOSIT,
};

/** The step of each of PRICED_PHASES, by the phase's number in plan.phaseStart. */
export const PHASE_STEPS: readonly Step[] = PRICED_PHASES.map((phase) => STEP_OF_PHASE[phase]);

export function skipped(plan: Plan, p: number, reason: string, total: number): Entry {
  return new Entry(p + 1, plan.phases[p], plan.ids[p], plan.ruleTypes[p], 'skipped', reason, 0, total);
}

function applied(plan: Plan, p: number, reason: string, deltaMinor: number, total: number): Entry {
  return new Entry(p + 1, plan.phases[p], plan.ids[p], plan.ruleTypes[p], 'applied', reason, deltaMinor, total);
}

/** Base override: the rule's price becomes the base (the caller skips later overrides). */
export function setBase(plan: Plan, p: number, total: number, derivation: DerivationEntry[], base: LineItem, offeringLabel: string, reason: string): number {
  const price = plan.values[p];
  base.amountMinor = price;
  base.label = `${offeringLabel} (${plan.labels[p]})`;
  base.ruleId = plan.ids[p];
  derivation[p + 1] = applied(plan, p, reason, price - total, price);
  return price;
}

/** Modifier: adds a fixed amount or a percentage of the total, which never goes below 0. */
export function adjust(plan: Plan, p: number, total: number, derivation: DerivationEntry[], lineItems: LineItem[], reason: string): number {
  const wanted = plan.flags[p] === 1 ? basisPointsOf(total, plan.values[p]) : plan.values[p];
  const delta = Math.max(wanted, -total);
  lineItems.push({ amountMinor: delta, kind: delta >= 0 ? 'surcharge' : 'discount', label: plan.labels[p], ruleId: plan.ids[p] });
  const after = total + delta;
  derivation[p + 1] = applied(plan, p, amountReason(plan, p, reason, total, wanted, delta), delta, after);
  return after;
}

/** Discount: takes off a fixed amount or a percentage of the total, at most the whole total. */
export function takeOff(plan: Plan, p: number, total: number, derivation: DerivationEntry[], lineItems: LineItem[], reason: string): number {
  const wanted = plan.flags[p] === 1 ? basisPointsOf(total, plan.values[p]) : plan.values[p];
  const taken = Math.min(wanted, total);
  lineItems.push({ amountMinor: -taken, kind: 'discount', label: plan.labels[p], ruleId: plan.ids[p] });
  const after = total - taken;
  derivation[p + 1] = applied(plan, p, amountReason(plan, p, reason, total, wanted, taken), -taken, after);
  return after;
}

/** A modifier's or discount's reason: a percentage worked out, and any limit that kept the total at 0 or more. */
function amountReason(plan: Plan, p: number, reason: string, before: number, wanted: number, got: number): string {
  if (plan.flags[p] === 1) reason = `${reason}${plan.wording.money(before)} = ${plan.wording.money(wanted)}`;
  if (got !== wanted) reason = `${reason}, limited to ${plan.wording.money(got)} so the total stays at 0 or more`;
  return reason;
}

/** Guardrail: raises the total to a minimum or lowers it to a maximum; skipped when it is within. */
export function limit(plan: Plan, p: number, total: number, derivation: DerivationEntry[], lineItems: LineItem[]): number {
  const amount = plan.values[p];
  const minimum = plan.flags[p] === 1;
  if (minimum ? !(total < amount) : !(total > amount)) {
    derivation[p + 1] = skipped(plan, p, `total ${plan.wording.money(total)}${plan.guardrailSkip[p]}`, total);
    return total;
  }
  const delta = amount - total;
  lineItems.push({ amountMinor: delta, kind: 'guardrail', label: plan.labels[p], ruleId: plan.ids[p] });
  derivation[p + 1] = applied(plan, p, `total ${plan.wording.money(total)}${plan.guardrailApplied[p]}`, delta, amount);
  return amount;
}

/** Payment terms: the rule's deposit is the quote's (the caller skips later terms); the total stays. */
export function setDeposit(plan: Plan, p: number, total: number, derivation: DerivationEntry[], reason: string): number {
  derivation[p + 1] = applied(plan, p, reason, 0, total);
  return total;
}
