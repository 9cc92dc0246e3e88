import { MAX_MINOR } from './limits';
import { basisPointsOf } from './money';
import type { DerivationEntry, InspectionNeed, LineItem, Outcome } from './outcome';
import { ADJUST, Entry, LIMIT, PHASE_STEPS, SET_BASE, SET_DEPOSIT, TAKE_OFF, adjust, limit, setBase, setDeposit, skipped, takeOff } from './phase-steps';
import type { CompiledBook, Notes, Plan } from './plan';
import { appliedReason, whyNotApplicable } from './rule-reasons';

/**
 * Prices an offering for an answer row (every asked factor answered or assumed): its base price,
 * then each phase's rules in plan order, each applied by its phase's step or skipped with a
 * reason. Every rule leaves one derivation entry. `memoise`: whether `notes` are the plan's own
 * assumption notes, so that applied wordings may be reused.
 */
export function priceRow(book: CompiledBook, offeringIndex: number, row: Uint16Array, notes: Notes, memoise: boolean): Outcome {
  const plan = book.plan;
  const offering = plan.offerings[offeringIndex];
  const phaseStart = plan.phaseStart;
  const ruleCount = plan.ruleCount;
  const scopeWord = offeringIndex >>> 5;
  const scopeBit = 1 << (offeringIndex & 31);
  // One entry per rule, the base entry and perhaps the full-balance entry: sized once.
  const derivation: DerivationEntry[] = new Array(ruleCount + 2);
  let total = offering.basePriceMinor;
  const base: LineItem = { amountMinor: total, kind: 'base', label: offering.label, ruleId: null };
  const lineItems: LineItem[] = [base];
  if (total > MAX_MINOR) return outOfRange();
  derivation[0] = new Entry(0, 'base', null, 'offeringBase', 'applied', plan.baseReason[offeringIndex], total, total);

  let depositBy = -1;
  for (let phase = 0; phase < PHASE_STEPS.length; phase++) {
    const step = PHASE_STEPS[phase];
    // The first base override (and the first payment terms) that applies settles its phase.
    let settledBy = -1;
    const end = phaseStart[phase + 1];
    for (let p = phaseStart[phase]; p < end; p++) {
      const skip = settledBy >= 0 ? plan.alreadyApplied[settledBy] : whyNotApplicable(plan, p, scopeWord, scopeBit, row);
      if (skip !== null) {
        derivation[p + 1] = skipped(plan, p, skip, total);
        continue;
      }
      switch (step) {
        case SET_BASE:
          total = setBase(plan, p, total, derivation, base, offering.label, appliedReason(plan, p, row, notes, memoise));
          settledBy = p;
          break;
        case ADJUST:
          total = adjust(plan, p, total, derivation, lineItems, appliedReason(plan, p, row, notes, memoise));
          break;
        case TAKE_OFF:
          total = takeOff(plan, p, total, derivation, lineItems, appliedReason(plan, p, row, notes, memoise));
          break;
        case LIMIT:
          total = limit(plan, p, total, derivation, lineItems);
          break;
        case SET_DEPOSIT:
          total = setDeposit(plan, p, total, derivation, appliedReason(plan, p, row, notes, memoise));
          settledBy = depositBy = p;
          break;
      }
      // Skipped rules leave the total as it was, so only a step's total is checked.
      if (total > MAX_MINOR) return outOfRange();
    }
  }
  if (depositBy < 0) {
    derivation[ruleCount + 1] = new Entry(
      ruleCount + 1, 'paymentTerms', null, 'fullBalance', 'applied', 'no deposit rule applies; the whole total is the balance', 0, total,
    );
  } else {
    derivation.length = ruleCount + 1;
  }

  const depositBasisPoints = depositBy < 0 ? 0 : plan.values[depositBy];
  const depositMinor = basisPointsOf(total, depositBasisPoints);
  return {
    outcome: 'succeeded',
    // Keys in sorted order, like every object of a receipt (see Entry in phase-steps.ts).
    computation: {
      conditions: plan.conditions[offeringIndex].slice(),
      currency: book.artifact.currency,
      derivation,
      lineItems,
      paymentTerms: { balanceDueMinor: total - depositMinor, depositBasisPoints, depositMinor },
      totalMinor: total,
    },
    inspections: inspectionsOf(plan, offeringIndex, row),
  };
}

function outOfRange(): Outcome {
  return {
    outcome: 'failed',
    failure: { code: 'amount_out_of_range', message: `The price exceeds the largest supported amount (${MAX_MINOR}).` },
  };
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
