import type { Phase } from './phases';

/** What the engine is asked (QuoteInputs) and what it answers (Outcome): the receipt's shape. */

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
