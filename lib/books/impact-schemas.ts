import { z } from 'zod';
import { PHASES } from '../pricing/phases';
import { CHANGE_BUCKETS, CHANGE_KINDS } from '../pricing/compare';
import { ruleStepSchema } from '../pricing/computation-schema';
import { artifactIssuesSchema } from './schemas';

/** The windows an impact run can look back over without dates. */
export const IMPACT_WINDOWS = { '24h': 24 * 3_600_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type ImpactWindowName = keyof typeof IMPACT_WINDOWS;
/** The longest window given by dates. */
const MAX_IMPACT_WINDOW_DAYS = 90;

export const publishGuardSchema = z
  .strictObject({
    changePercent: z.number().int().min(1).max(1000).meta({ description: 'A quote counts as changed when its price moves by more than this (whole percent).' }),
    sharePercent: z.number().int().min(0).max(100).meta({ description: 'Publishing asks for a typed confirmation when more than this share of quotes would change (0: always when any would).' }),
  })
  .meta({ id: 'PublishGuard' });
export type PublishGuard = z.infer<typeof publishGuardSchema>;
export const DEFAULT_PUBLISH_GUARD: PublishGuard = { changePercent: 10, sharePercent: 10 };

export const impactRequestSchema = z
  .strictObject({
    versionId: z.uuid().optional().meta({ description: 'A version of the book to try; the saved draft when neither this nor `artifact` is sent.' }),
    artifact: z.record(z.string(), z.unknown()).optional().meta({ description: 'An artifact to try instead of the saved draft (e.g. unsaved edits).' }),
    environment: z.enum(['test', 'live']).default('live'),
    window: z.enum(Object.keys(IMPACT_WINDOWS) as [ImpactWindowName, ...ImpactWindowName[]]).optional().meta({ description: 'How far back from now; `7d` when neither this nor `from` is sent.' }),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional().meta({ description: 'End of a `from` window (exclusive); now when omitted.' }),
    offeringId: z.string().min(1).max(80).optional(),
  })
  .superRefine((request, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (request.versionId !== undefined && request.artifact !== undefined) issue('artifact', 'send either versionId or artifact, not both');
    if (request.window !== undefined && (request.from !== undefined || request.to !== undefined)) issue('window', 'send either window or from/to, not both');
    if (request.to !== undefined && request.from === undefined) issue('from', 'is required with to');
    if (request.from !== undefined) {
      const from = Date.parse(request.from);
      const to = request.to === undefined ? Date.now() : Date.parse(request.to);
      if (!(from < to)) issue('from', 'must be before to');
      else if (to - from > MAX_IMPACT_WINDOW_DAYS * 86_400_000) issue('from', `the window can be at most ${MAX_IMPACT_WINDOW_DAYS} days`);
    }
  })
  .meta({ id: 'ImpactRequest' });
export type ImpactRequest = z.output<typeof impactRequestSchema>;

const counts = z.object({
  unchanged: z.number().int(),
  higher: z.number().int(),
  lower: z.number().int(),
  newlyRequiresInput: z.number().int(),
  newlyFailed: z.number().int(),
  nowPriced: z.number().int(),
});
const outcomeName = z.enum(['succeeded', 'requires_input', 'failed']);
const ruleStep = ruleStepSchema.nullable();

const impactSchema = z
  .object({
    bookId: z.uuid(),
    environment: z.enum(['test', 'live']),
    window: z.object({ from: z.iso.datetime(), to: z.iso.datetime() }),
    offeringId: z.string().nullable(),
    candidate: z.object({
      source: z.enum(['draft', 'version', 'artifact']),
      versionId: z.uuid().nullable(),
      number: z.number().int().nullable(),
      artifactHash: z.string(),
      currency: z.string(),
    }),
    /** The versions that answered the window's quotes, with how many each answered. */
    baselineVersions: z.array(z.object({ versionId: z.uuid().nullable(), number: z.number().int().nullable(), quotes: z.number().int() })),
    requests: z.number().int().meta({ description: 'Distinct requests (answers and the version that priced them) re-priced.' }),
    quotes: z.number().int().meta({ description: 'Quotes those requests stand for.' }),
    counts: counts.meta({ description: 'Quotes by what happens to their price.' }),
    requestCounts: counts.meta({ description: 'Distinct requests by what happens to their price.' }),
    histogram: z.array(
      z.object({ bucket: z.enum(CHANGE_BUCKETS.map((b) => b.id) as [string, ...string[]]), label: z.string(), quotes: z.number().int(), requests: z.number().int() }),
    ).meta({ description: 'Quotes priced before and after, by relative change.' }),
    offerings: z.array(
      z.object({
        offeringId: z.string(),
        label: z.string(),
        requests: z.number().int(),
        quotes: z.number().int(),
        changedQuotes: z.number().int(),
        totalBeforeMinor: z.number(),
        totalAfterMinor: z.number(),
        meanChangePercent: z.number().nullable(),
        medianChangePercent: z.number().nullable(),
      }),
    ),
    movers: z.array(
      z.object({
        quoteIntentId: z.uuid().meta({ description: 'The newest quote with these answers.' }),
        quotes: z.number().int(),
        offeringId: z.string(),
        offeringLabel: z.string(),
        answers: z.array(z.object({ factorId: z.string(), factor: z.string(), optionId: z.string().nullable(), option: z.string().nullable() })),
        change: z.enum(CHANGE_KINDS),
        changePercent: z.number().nullable(),
        before: z.object({ versionNumber: z.number().int().nullable(), outcome: outcomeName, totalMinor: z.number().int().nullable() }),
        after: z.object({
          outcome: outcomeName,
          totalMinor: z.number().int().nullable(),
          missingInputs: z.array(z.string()),
          failure: z.object({ code: z.string(), message: z.string() }).nullable(),
        }),
        differences: z.array(
          z.object({
            phase: z.enum(PHASES),
            ruleId: z.string().nullable(),
            label: z.string(),
            before: ruleStep,
            after: ruleStep,
            deltaChangeMinor: z.number().int(),
          }),
        ).meta({ description: 'The rules that priced differently; their deltaChangeMinor add up to after.totalMinor - before.totalMinor.' }),
      }),
    ),
    guard: publishGuardSchema.extend({
      significantlyChangedQuotes: z.number().int(),
      significantlyChangedPercent: z.number(),
      requiresConfirmation: z.boolean(),
    }).meta({ description: 'The business\'s publishing safeguard applied to these figures.' }),
  })
  .meta({ id: 'Impact' });
export type Impact = z.infer<typeof impactSchema>;

export const impactResponseSchema = z
  .object({
    valid: z.boolean(),
    issues: artifactIssuesSchema,
    impact: impactSchema.nullable(),
  })
  .meta({ id: 'ImpactResult' });
export type ImpactResult = z.infer<typeof impactResponseSchema>;

/** What a publication's audit record keeps of the impact shown before publishing. */
export const impactSummarySchema = impactSchema
  .pick({ environment: true, window: true, candidate: true, baselineVersions: true, requests: true, quotes: true, counts: true, histogram: true, guard: true })
  .meta({ id: 'ImpactSummary' });
export type ImpactSummary = z.infer<typeof impactSummarySchema>;

/** How far back the impact shown in the publish dialog looks. */
export const PUBLISH_IMPACT_WINDOW: ImpactWindowName = '7d';
/** How long a publish dialog's figures stay good for publishing. */
export const PUBLISH_IMPACT_MAX_AGE_MS = 15 * 60_000;

export const publicationRecordSchema = z
  .object({
    id: z.uuid(),
    environment: z.enum(['test', 'live']),
    version: z.object({ id: z.uuid(), number: z.number().int() }),
    previousVersion: z.object({ id: z.uuid(), number: z.number().int() }).nullable(),
    publishedBy: z.string().nullable(),
    publishedAt: z.iso.datetime(),
    impact: impactSummarySchema.nullable().meta({ description: 'The impact of the last 7 days checked before publishing (null for publications made by the system).' }),
    confirmation: z.string().nullable().meta({ description: 'What the member typed when the safeguard asked for it.' }),
  })
  .meta({ id: 'PublicationRecord' });
export type PublicationRecordView = z.infer<typeof publicationRecordSchema>;
