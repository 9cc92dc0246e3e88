import { z } from 'zod';
import { publishGuardSchema } from '../books/impact-schemas';

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

export const brandingSchema = z
  .strictObject({
    displayName: z.string().trim().min(1).max(120),
    logoUrl: z
      .url({ protocol: /^https$/, error: 'an https:// URL' })
      .max(2000)
      .nullable(),
    primaryColor: color,
    accentColor: color,
    nextStep: z
      .strictObject({
        label: z.string().trim().min(1).max(60),
        url: z.url({ protocol: /^https$/, error: 'an https:// URL' }).max(2000),
      })
      .nullable()
      .optional()
      .meta({ description: 'A button under the price on the hosted page (e.g. "Book this visit"); null removes it, omitted keeps it.' }),
    acceptanceConsent: z
      .string()
      .trim()
      .min(10)
      .max(500)
      .nullable()
      .optional()
      .meta({
        description:
          'The sentence a customer agrees to when accepting a quote on the hosted page; null brings back the default ("I agree that <display name> may contact me about this quote."), omitted keeps it.',
      }),
  })
  .meta({ id: 'Branding' });

export const businessSchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    name: z.string(),
    branding: z.object({
      displayName: z.string(),
      logoUrl: z.string().nullable(),
      primaryColor: z.string().nullable(),
      accentColor: z.string().nullable(),
      nextStep: z.object({ label: z.string(), url: z.string() }).nullable(),
      acceptanceConsent: z.string().meta({ description: 'The consent sentence customers see when they accept a quote (the default when none was set).' }),
      acceptanceConsentIsDefault: z.boolean(),
    }),
    publishGuard: publishGuardSchema.meta({ description: 'When publishing to Live asks for a typed confirmation.' }),
    connection: z
      .object({ projectId: z.uuid(), kind: z.enum(['direct', 'managed']), status: z.enum(['active', 'inactive']) })
      .nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Business' });

export type Branding = z.infer<typeof brandingSchema>;
export type BusinessView = z.infer<typeof businessSchema>;

export const businessOverviewSchema = z
  .object({
    quotesPerDay: z.array(z.object({ day: z.string(), succeeded: z.number().int(), requiresInput: z.number().int(), failed: z.number().int() })),
    /** API calls filed under the business over the last 7 days (the portal's own left out). */
    apiCalls: z.object({ total: z.number().int(), failed: z.number().int(), errorRate: z.number().nullable() }),
    /** Webhook attempts to the Live endpoints of the business's project over the last 7 days. */
    webhooks: z.object({ attempts: z.number().int(), succeeded: z.number().int(), successRate: z.number().nullable() }),
    checklist: z.object({ bookPublished: z.boolean(), apiKeyCreated: z.boolean(), quoteMade: z.boolean(), endpointAdded: z.boolean() }),
    /** What waits for the business now (Live): held quotes to review, leads, prices about to run out. */
    pipeline: z.object({
      heldQuotes: z.number().int().meta({ description: 'Account quotes awaiting review.' }),
      leadsThisWeek: z.number().int().meta({ description: 'Quotes customers accepted in the last 7 days, counted up to 1,000 (1,000: that many or more).' }),
      newLeads: z.number().int().meta({ description: 'Leads nobody has moved on from `new` yet, counted up to 1,000 (1,000: that many or more).' }),
      expiringSoon: z.number().int().meta({ description: 'Priced quotes not yet accepted or committed whose price runs out in the next 7 days, counted up to 1,000 (1,000: that many or more).' }),
    }),
  })
  .meta({ id: 'BusinessOverview' });
export type BusinessOverview = z.infer<typeof businessOverviewSchema>;
