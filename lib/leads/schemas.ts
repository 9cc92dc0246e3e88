import { z } from 'zod';
import { LEAD_STATUSES, PIPELINE_STATUSES } from './statuses';

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDay = (value: string) => dayPattern.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** A customer's acceptance of a priced quote on the hosted page (`POST /v1/public_quotes/{id}/acceptance`). */
export const acceptQuoteRequestSchema = z
  .strictObject({
    businessId: z.uuid().meta({ description: 'The business whose page the customer is on: a quote of another business is refused (404).' }),
    contact: z
      .strictObject({
        name: z.string().trim().min(1, 'tell us your name').max(120),
        email: z.email('an email address such as name@example.com').max(254).optional(),
        phone: z
          .string()
          .trim()
          .regex(/^\+?[0-9 ().-]{6,30}$/, 'a phone number such as +1 555 0100')
          .optional(),
      })
      .refine((c) => c.email !== undefined || c.phone !== undefined, { message: 'give an email address or a phone number', path: ['email'] }),
    note: z.string().trim().max(1000).optional(),
    preferredDate: z
      .string()
      .refine(isCalendarDay, 'a day as YYYY-MM-DD')
      .optional()
      .meta({ description: 'The day the customer would like the work done.' }),
    consent: z.literal(true, 'agree to be contacted about this quote'),
    formToken: z
      .string()
      .max(200)
      .meta({ description: 'From GET /v1/public_quotes/{id}/acceptance: proves the form was shown, and not a moment ago.' }),
    website: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Leave empty: a field people never see, which form-filling robots fill in.' }),
  })
  .meta({ id: 'AcceptQuoteRequest' });
export type AcceptQuoteRequest = z.output<typeof acceptQuoteRequestSchema>;

/** What the customer sees of their acceptance: never their contact details (anyone with the link could). */
export const publicAcceptanceSchema = z
  .object({
    id: z.uuid(),
    quoteIntentId: z.uuid(),
    acceptedAt: z.iso.datetime(),
    preferredDate: z.string().nullable(),
  })
  .meta({ id: 'PublicAcceptance' });
export type PublicAcceptance = z.infer<typeof publicAcceptanceSchema>;

export const acceptanceStateSchema = z
  .object({
    acceptance: publicAcceptanceSchema.nullable(),
    /** How the quote may be accepted now; null when it cannot (accepted already, expired, not priced). */
    form: z.object({ token: z.string(), consentText: z.string() }).nullable(),
    /** Why it cannot be accepted, when it cannot and has not been. */
    refusal: z.enum(['expired', 'not_priced']).nullable(),
  })
  .meta({ id: 'QuoteAcceptanceState' });
export type AcceptanceState = z.infer<typeof acceptanceStateSchema>;

const contactSchema = z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() });

/** A lead as the business's members see it (session routes). `contact` is null once erased. */
export const leadSchema = z
  .object({
    id: z.uuid(),
    quoteIntentId: z.uuid(),
    receiptId: z.uuid(),
    receiptSignature: z.string().nullable(),
    status: z.enum(LEAD_STATUSES),
    contact: contactSchema.nullable(),
    note: z.string().nullable(),
    preferredDate: z.string().nullable(),
    consentText: z.string(),
    total: z.object({ amountMinor: z.number().int(), currency: z.string() }),
    offeringId: z.string(),
    offeringLabel: z.string().nullable(),
    createdAt: z.iso.datetime(),
    statusChangedAt: z.iso.datetime().nullable(),
    erasedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Lead' });
export type Lead = z.infer<typeof leadSchema>;

export const moveLeadRequestSchema = z.strictObject({ status: z.enum(PIPELINE_STATUSES) }).meta({ id: 'MoveLeadRequest' });
