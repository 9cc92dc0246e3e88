import { z } from 'zod';
import { DEFAULT_SURFACES, EXPERIMENT_SURFACES } from './surfaces';

export const EXPERIMENT_METRICS = ['revenue_per_quote', 'acceptance_rate', 'committed_revenue'] as const;
export const EXPERIMENT_STATES = ['draft', 'running', 'stopped', 'concluded'] as const;

const surfacesSchema = z
  .array(z.enum(EXPERIMENT_SURFACES))
  .min(1)
  .max(EXPERIMENT_SURFACES.length)
  .refine((surfaces) => new Set(surfaces).size === surfaces.length, 'Each surface once.')
  .meta({
    description:
      'Where its quotes come from: `hosted` (the hosted quote page), `api` (POST /v1/quotes), `account` (the account surface, whose quotes are committed) and `member` (business members quoting in the portal). Quotes from other surfaces are priced with the publication.',
  });

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
    surfaces: surfacesSchema.default([...DEFAULT_SURFACES]),
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
/** What a client sends: settings with defaults may be left out. */
export type CreateExperimentInput = z.input<typeof createExperimentRequestSchema>;

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
    surfaces: z.array(z.enum(EXPERIMENT_SURFACES)).meta({ description: 'The surfaces whose quotes take part (`hosted`, `api`, `account`, `member`).' }),
    maxPriceDifferencePercent: z.number().int().meta({ description: 'Guardrail: the largest price difference (whole percent) a variant may have from the control for the same answers to start.' }),
    pauseWhenAcceptanceDropsPoints: z
      .number()
      .nullable()
      .meta({ description: 'Guardrail: the acceptance-rate margin (percentage points) below the control at which a variant is paused; null: never.' }),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    stoppedAt: z.iso.datetime().nullable(),
    concludedAt: z.iso.datetime().nullable().meta({ description: 'When it was promoted (state `concluded`).' }),
    winner: z
      .object({
        arm: z.string().meta({ description: 'The arm promoted: `control`, `variant_1`…' }),
        versionId: z.uuid().meta({ description: 'The version that arm priced with: a variant’s is published by the promotion; the control’s (pinned at start) is not published again.' }),
      })
      .nullable()
      .meta({ description: 'The arm promoted; null until the experiment is concluded.' }),
  })
  .meta({ id: 'Experiment', description: 'An A/B test of versions of one book in one environment.' });
export type ExperimentView = z.infer<typeof experimentSchema>;

const intervalSchema = z
  .object({ estimate: z.number(), lower: z.number(), upper: z.number() })
  .meta({ id: 'ExperimentInterval', description: 'An estimate with its anytime-valid interval (docs/experiments.md, "The statistics").' });

export const experimentResultsSchema = z
  .object({
    experimentId: z.uuid(),
    state: z.enum(EXPERIMENT_STATES),
    metric: z.enum(EXPERIMENT_METRICS).meta({ description: 'The primary metric: the one the decision is made on.' }),
    asOf: z.iso.datetime(),
    arms: z.array(
      z.object({
        name: z.string(),
        versionId: z.uuid().nullable(),
        quotes: z.number().int().meta({ description: 'Priced quotes made in the arm.' }),
        acceptances: z.number().int().meta({ description: 'Of those, accepted by the customer on the hosted page.' }),
        commitments: z.number().int().meta({ description: 'Commitments of the arm’s account-surface quotes (only those are committed).' }),
        wonLeads: z.number().int().meta({ description: 'Acceptances whose lead is `won` now.' }),
        acceptedRevenueMinor: z.number().int().meta({ description: 'The accepted quotes’ totals summed, in minor units.' }),
        revenuePerQuoteMinor: z.number().nullable().meta({ description: 'Accepted revenue per quote (minor units, fractional); null without quotes.' }),
        acceptanceRate: z.number().nullable().meta({ description: 'Acceptances per quote (a fraction); null without quotes.' }),
        averagePriceMinor: z.number().nullable().meta({ description: 'The average quoted price (minor units, fractional); null without quotes.' }),
        currency: z.string().nullable().meta({ description: 'The arm’s currency; null without quotes.' }),
      }),
    ),
    comparisons: z.array(
      z.object({
        arm: z.string().meta({ description: 'The variant compared with the control.' }),
        metric: z.enum(EXPERIMENT_METRICS),
        verdict: z.enum(['better', 'worse', 'same', 'not_enough_data']),
        absolute: intervalSchema.nullable().meta({ description: 'Variant − control per quote (minor units, or a rate); null without data.' }),
        relative: intervalSchema.nullable().meta({ description: '(Variant − control) / control, a fraction; null when the control’s mean is 0 or unknown.' }),
        moreQuotesPerArm: z.number().int().nullable().meta({ description: 'For `not_enough_data`: about how many more quotes each arm needs; null otherwise or when it cannot be told.' }),
        sentence: z.string().meta({ description: 'The comparison in words, with its 95% interval.' }),
      }),
    ),
  })
  .meta({ id: 'ExperimentResults', description: 'Each variant against the control on the primary metric and the two others, from totals counted off the quote path.' });
export type ExperimentResultsView = z.infer<typeof experimentResultsSchema>;
export const promoteExperimentRequestSchema = z
  .strictObject({
    arm: z
      .string()
      .regex(/^(control|variant_[1-9])$/, 'an arm of the experiment: control, variant_1…')
      .meta({ description: 'The arm to promote: a variant’s version is published (with the publishing safeguard); `control` concludes without publishing anything.' }),
    impactAsOf: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'As for publishing: the end of the 7-day impact window shown to the member (at most 15 minutes old); now when omitted.' }),
    confirmation: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'As for publishing: needed on Live when the safeguard asks for it, `publish v<number>` of the arm’s version.' }),
  })
  .meta({ id: 'PromoteExperimentRequest' });
export type PromoteExperimentRequest = z.output<typeof promoteExperimentRequestSchema>;
