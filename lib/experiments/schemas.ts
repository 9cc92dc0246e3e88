import { z } from 'zod';

export const EXPERIMENT_METRICS = ['revenue_per_quote', 'acceptance_rate', 'committed_revenue'] as const;
export const EXPERIMENT_STATES = ['draft', 'running', 'stopped', 'concluded'] as const;
export const WEIGHT_UNITS = { percent: 100, basis_points: 10_000 } as const;
export type WeightUnit = keyof typeof WEIGHT_UNITS;

/** The guardrails when the request does not set them (docs/experiments.md, "Guardrails"). */
export const DEFAULT_GUARDRAILS = { maxPriceDifferencePercent: 20, pauseWhenAcceptanceDropsPoints: 5 } as const;

/** At most this many variants besides the control. */
export const MAX_VARIANTS = 9;

export const createExperimentRequestSchema = z
  .strictObject({
    environment: z.enum(['test', 'live']).meta({ description: 'Test and Live run experiments of their own.' }),
    name: z.string().trim().min(1).max(120),
    weightUnit: z
      .enum(['percent', 'basis_points'])
      .default('percent')
      .meta({ description: 'How the weights are given: `percent` (they sum to 100) or `basis_points` (they sum to 10,000).' }),
    controlWeight: z.number().int().min(0).max(10_000).meta({ description: 'The share of subjects priced with the control: the publication when the experiment starts.' }),
    variants: z
      .array(
        z.strictObject({
          versionId: z.uuid().meta({ description: 'A version of the same book.' }),
          weight: z.number().int().min(0).max(10_000),
        }),
      )
      .min(1)
      .max(MAX_VARIANTS)
      .meta({ description: 'Named `variant_1`, `variant_2`… in this order.' }),
    offeringIds: z
      .array(z.string().min(1).max(80))
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Only quotes for these offerings take part; every offering when omitted.' }),
    primaryMetric: z.enum(EXPERIMENT_METRICS).default('revenue_per_quote'),
    maxPriceDifferencePercent: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(DEFAULT_GUARDRAILS.maxPriceDifferencePercent)
      .meta({
        description:
          'Guardrail: the largest difference (whole percent, either way) allowed between a variant’s price and the control’s for the same answers; a variant further away than this on recent quotes cannot start.',
      }),
    pauseWhenAcceptanceDropsPoints: z
      .number()
      .gt(0)
      .lt(100)
      .nullable()
      .default(DEFAULT_GUARDRAILS.pauseWhenAcceptanceDropsPoints)
      .meta({
        description:
          'Guardrail: a variant whose acceptance rate is shown (with 95% confidence, checked every minute) to be more than this many percentage points below the control’s is paused: its subjects are priced with the control from then on. null: never pause.',
      }),
  })
  .superRefine((request, ctx) => {
    const total = request.controlWeight + request.variants.reduce((sum, v) => sum + v.weight, 0);
    const expected = WEIGHT_UNITS[request.weightUnit];
    if (total !== expected) {
      ctx.addIssue({ code: 'custom', path: ['variants'], message: `The weights sum to ${total}; in ${request.weightUnit.replace('_', ' ')} they must sum to ${expected}.` });
    }
    const versions = request.variants.map((v) => v.versionId);
    if (new Set(versions).size !== versions.length) ctx.addIssue({ code: 'custom', path: ['variants'], message: 'Each variant must be a different version.' });
  })
  .meta({ id: 'CreateExperimentRequest' });
export type CreateExperimentRequest = z.output<typeof createExperimentRequestSchema>;

export const experimentArmSchema = z
  .object({
    name: z.string().meta({ description: '`control`, then `variant_1`, `variant_2`…: the order assignment walks.' }),
    versionId: z.uuid().nullable().meta({ description: 'The version the arm prices with; the control’s is the publication pinned at start (null before).' }),
    weight: z.number().int().meta({ description: 'As given, in `weightUnit`.' }),
    basisPoints: z.number().int().meta({ description: 'The weight in basis points (of 10,000): what assignment uses.' }),
    pausedAt: z.iso
      .datetime()
      .optional()
      .meta({ description: 'Present once the guardrail paused the arm: subjects it assigns are priced with the control from this instant on (quotes before it keep the arm).' }),
    pauseReason: z.string().optional().meta({ description: 'Why it was paused, in plain words.' }),
  })
  .meta({ id: 'ExperimentArm' });

export const experimentSchema = z
  .object({
    id: z.uuid(),
    bookId: z.uuid(),
    environment: z.enum(['test', 'live']),
    name: z.string(),
    state: z.enum(EXPERIMENT_STATES),
    primaryMetric: z.enum(EXPERIMENT_METRICS),
    salt: z.string().meta({ description: 'Fixed at creation: the HMAC key of assignment. With `id` and `arms` it is the published definition a receipt’s arm is recomputed from (docs/experiments.md).' }),
    weightUnit: z.enum(['percent', 'basis_points']),
    arms: z.array(experimentArmSchema),
    offeringIds: z.array(z.string()).nullable().meta({ description: 'The offerings that take part; null: every offering.' }),
    maxPriceDifferencePercent: z.number().int().meta({ description: 'Guardrail: the largest price difference (whole percent) a variant may have from the control for the same answers to start.' }),
    pauseWhenAcceptanceDropsPoints: z
      .number()
      .nullable()
      .meta({ description: 'Guardrail: the acceptance-rate margin (percentage points) below the control at which a variant is paused; null: never.' }),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    stoppedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Experiment', description: 'An A/B test of versions of one book in one environment.' });
export type ExperimentView = z.infer<typeof experimentSchema>;
