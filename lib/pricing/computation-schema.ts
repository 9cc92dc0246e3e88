import { z } from 'zod';
import { PHASES } from './phases';

// The engine's priced outcome as receipts carry it (spec 2.4): quotes and previews answer with it.

const lineItemSchema = z
  .object({
    kind: z.enum(['base', 'surcharge', 'discount', 'guardrail']),
    label: z.string(),
    amountMinor: z.number().int(),
    ruleId: z.string().nullable(),
  })
  .meta({ id: 'ReceiptLineItem' });

/** A rule's step in one price, as a comparison of two prices shows it (impact runs, quote comparisons). */
export const ruleStepSchema = z.object({ status: z.enum(['applied', 'skipped']), deltaMinor: z.number().int() });

export const derivationEntrySchema = z
  .object({
    sequence: z.number().int().min(0),
    phase: z.enum(PHASES),
    ruleId: z.string().nullable(),
    ruleType: z.string().nullable(),
    status: z.enum(['applied', 'skipped']),
    reason: z.string(),
    deltaMinor: z.number().int(),
    runningTotalMinor: z.number().int().min(0),
  })
  .meta({ id: 'DerivationEntry' });

export const quoteComputationSchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/),
    lineItems: z.array(lineItemSchema).min(1),
    totalMinor: z.number().int().min(0),
    paymentTerms: z.object({
      depositBasisPoints: z.number().int().min(0).max(10_000),
      depositMinor: z.number().int().min(0),
      balanceDueMinor: z.number().int().min(0),
    }),
    conditions: z.array(z.string()),
    derivation: z.array(derivationEntrySchema).min(1),
  })
  .meta({ id: 'QuoteComputation' });
