import { z } from 'zod';
import type { ArtifactDiff } from '../books/artifact-diff';
import { PHASES } from '../pricing/phases';
import { derivationEntrySchema, ruleStepSchema } from '../pricing/computation-schema';
import { quoteIntentStatusSchema } from './schemas';

// GET /v1/quote-intents/{id}/comparison?with={otherId}: why two quotes of one business differ.
// A is the quote of the path, B the one named by `with`; every difference reads B minus A.

const fieldChange = z.object({
  field: z.string().meta({ description: 'Dotted: `basePriceMinor`, `adjustment.basisPoints`, `options.large.label`.' }),
  before: z.unknown().optional().meta({ description: 'Absent when the field is not set on that side.' }),
  after: z.unknown().optional(),
});

/** What changed from A's book version to B's (lib/books/artifact-diff.ts). */
export const artifactDiffSchema = z
  .object({
    settings: z.array(fieldChange).meta({ description: 'Book-wide settings: currency, autonomy, format version.' }),
    entities: z.array(
      z.object({
        kind: z.enum(['offering', 'factor', 'rule']),
        id: z.string(),
        label: z.string(),
        change: z.enum(['added', 'removed', 'changed']),
        fields: z.array(fieldChange),
      }),
    ),
    conditions: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
    ruleOrderChanged: z.boolean(),
  })
  .meta({ id: 'ArtifactDiff' });
// The schema and the diff's own type describe the same thing.
artifactDiffSchema satisfies z.ZodType<ArtifactDiff>;

const comparedQuoteSchema = z.object({
  quoteIntentId: z.uuid(),
  createdAt: z.iso.datetime(),
  environment: z.enum(['test', 'live']),
  source: z.enum(['hosted', 'api']),
  status: quoteIntentStatusSchema,
  outcome: z.enum(['succeeded', 'requires_input', 'failed']),
  offeringId: z.string(),
  offeringLabel: z.string(),
  bookVersion: z.object({ id: z.uuid(), number: z.number().int() }).nullable(),
  totalMinor: z.number().int().nullable(),
  currency: z.string().nullable(),
  missingInputs: z.array(z.string()),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  derivation: z
    .array(
      derivationEntrySchema.extend({
        label: z.string().meta({ description: 'The rule as people name it ("Base price" and "Whole balance due" for the steps no rule makes).' }),
        differs: z.boolean().meta({ description: 'This step priced differently in the other quote (it is one of `phases[].steps`).' }),
      }),
    )
    .meta({ description: 'The receipt\'s derivation (the waterfall), each step labelled; empty when the quote was not priced.' }),
});

const answerValueSchema = z
  .object({
    id: z.string().nullable().meta({ description: 'The option (or offering) id; null when answered "not sure".' }),
    label: z.string(),
  })
  .nullable()
  .meta({ description: 'Null when this quote gave no answer.' });

export const quoteComparisonSchema = z
  .object({
    businessId: z.uuid(),
    a: comparedQuoteSchema,
    b: comparedQuoteSchema,
    answers: z
      .array(z.object({ factorId: z.string().nullable().meta({ description: 'Null for the offering.' }), label: z.string(), a: answerValueSchema, b: answerValueSchema }))
      .meta({ description: 'Only what differs: the offering, then each answer, in the order B\'s book asks them.' }),
    bookVersion: z.object({
      same: z.boolean(),
      sameBook: z.boolean(),
      changes: artifactDiffSchema.nullable().meta({ description: 'From A\'s version to B\'s; null when the version is the same or either quote had none.' }),
    }),
    phases: z
      .array(
        z.object({
          phase: z.enum(PHASES),
          steps: z.array(
            z.object({
              ruleId: z.string().nullable(),
              label: z.string(),
              a: ruleStepSchema.nullable().meta({ description: 'Null when A\'s book version has no such rule.' }),
              b: ruleStepSchema.nullable(),
              deltaChangeMinor: z.number().int().meta({ description: 'B\'s delta minus A\'s.' }),
              sentence: z.string(),
            }),
          ),
        }),
      )
      .meta({ description: 'The steps that priced differently, phase by phase; empty when there is no reconciliation.' }),
    reconciliation: z
      .object({
        currency: z.string(),
        totalAMinor: z.number().int(),
        totalBMinor: z.number().int(),
        differenceMinor: z.number().int().meta({ description: '`totalBMinor - totalAMinor`.' }),
        explainedMinor: z.number().int().meta({ description: 'The sum of the steps\' `deltaChangeMinor`: always equal to `differenceMinor`.' }),
      })
      .nullable()
      .meta({ description: 'Null when either quote was not priced, or the two are in different currencies (`notReconciled` says which).' }),
    notReconciled: z.enum(['a_not_priced', 'b_not_priced', 'neither_priced', 'currencies_differ']).nullable(),
    summary: z.array(z.string()).meta({ description: 'The difference in plain sentences, most important first.' }),
  })
  .meta({ id: 'QuoteComparison' });

export type QuoteComparison = z.infer<typeof quoteComparisonSchema>;
export type ComparedQuote = QuoteComparison['a'];
export type ComparedStep = QuoteComparison['phases'][number]['steps'][number];
