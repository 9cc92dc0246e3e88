import { z } from 'zod';
import { FUNNEL_DEFAULT_WEEKS, FUNNEL_MAX_WEEKS } from './weeks';

export const funnelQueryShape = {
  offeringId: z.string().min(1).max(200).optional().meta({ description: 'Only the quotes that named this offering.' }),
  weeks: z.coerce.number().int().min(1).max(FUNNEL_MAX_WEEKS).default(FUNNEL_DEFAULT_WEEKS).meta({ description: 'ISO weeks (UTC, Monday first), this one included.' }),
};

const count = z.number().int().min(0);

export const funnelPriceSchema = z
  .object({
    currency: z.string(),
    quotes: count.meta({ description: 'Priced quotes in this currency (the percentiles are of these).' }),
    p25Minor: z.number().int(),
    medianMinor: z.number().int(),
    p75Minor: z.number().int(),
  })
  .meta({ id: 'FunnelPrice', description: 'Nearest-rank percentiles of the priced totals, in minor units; null when nothing was priced.' });

export const funnelCountsShape = {
  quotes: count.meta({ description: 'Quote Intents made (hosted page, members, API keys), as the Overview counts them.' }),
  priced: count.meta({ description: 'Of those, priced (`succeeded`).' }),
  requiresInput: count.meta({ description: 'Of those, answered `requires_input`: the customer left a required question unanswered.' }),
  accepted: count.meta({ description: 'Priced quotes of the period the customer accepted on the hosted page (leads).' }),
  committed: count.meta({
    description:
      'Commitments the business\'s integration confirmed on its Live account-surface quotes made in the period (the account surface\'s close; those quotes are not among `quotes`).',
  }),
  won: count.meta({ description: 'Accepted quotes of the period whose lead is now `won`.' }),
  price: funnelPriceSchema.nullable(),
};

export const funnelWeekSchema = z
  .object({
    week: z.string().meta({ description: 'ISO week, `YYYY-Www`.' }),
    start: z.string().meta({ description: 'Its Monday, `YYYY-MM-DD` (UTC).' }),
    ...funnelCountsShape,
  })
  .meta({ id: 'FunnelWeek' });

export const businessFunnelSchema = z
  .object({
    environment: z.literal('live'),
    offeringId: z.string().nullable(),
    offerings: z.array(z.object({ id: z.string(), label: z.string() })).meta({ description: 'The offerings of the Live published version of the business\'s book: what `offeringId` may name.' }),
    from: z.string().meta({ description: 'The first day counted, `YYYY-MM-DD` (a Monday, UTC).' }),
    weeks: z.array(funnelWeekSchema).meta({ description: 'Oldest first, newest (this week, so far) last.' }),
    total: z.object(funnelCountsShape),
    unanswered: z
      .array(
        z.object({
          input: z.string().meta({ description: 'As the receipt names it: `factors.<id>` or `offeringId`.' }),
          factorId: z.string().nullable(),
          label: z.string().nullable().meta({ description: 'The question as the latest book version that asked it words it.' }),
          quotes: count,
        }),
      )
      .meta({ description: 'The questions `requires_input` quotes most often left unanswered, most first, five at most.' }),
  })
  .meta({ id: 'BusinessFunnel' });

export type BusinessFunnel = z.infer<typeof businessFunnelSchema>;
export type FunnelPrice = z.infer<typeof funnelPriceSchema>;
