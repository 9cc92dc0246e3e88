import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../events/event-types';
import { accountQuoteRecordSchema, commitmentSchema, producedQuoteSchema } from '../accounts/account-schemas';
import { businessSchema } from '../businesses/schemas';
import { experimentSchema } from '../experiments/schemas';
import { apiKeyViewSchema } from '../keys/schemas';
import { leadSchema } from '../leads/schemas';
import { businessMemberSchema } from '../members/schemas';
import { quoteComputationSchema } from '../pricing/computation-schema';
import { quoteIntentSchema, quoteReceiptSchema } from '../quotes/schemas';
import { EVENT_MEANINGS, type EventMeaning } from './meanings';
import { AT, EXAMPLE_SIGNATURE, IDS, apiKey, experiment, heldQuote, member, quoteIntent, quoteReceipt } from './catalogue-examples';

/**
 * Every event type the service emits, with when it is emitted (meanings.ts), the schema of its
 * `data` and an example of it: the one source for docs/events.md, GET /v1/event-types, the portal's event
 * catalogue, the OpenAPI document's `webhooks` and the SDK's `WebhookEvent`. Tests parse each
 * example, and one real event of every type, with its schema.
 */
export type EventDescription = EventMeaning & EventData;

type EventData = {
  /** The schema of the event's `data`: the API's own schemas wherever it answers with the same object. */
  data: z.ZodType;
  /** An example of the event's `data`. */
  example: Record<string, unknown>;
  /** Its envelope names the business (`businessId`); other events' envelopes have none. */
  businessScoped?: true;
};

// The schemas of the events' `data` the API answers with nowhere else.

/** Who changed a key, when nobody did: the Test key that triggered the event (POST /v1/event-triggers). */
const triggeredBySchema = z
  .strictObject({ apiKeyId: z.uuid() })
  .meta({ id: 'EventTrigger', description: 'The Test key that triggered the event on purpose (POST /v1/event-triggers): no person did it.' });

/** A key event's data: with the person who did it under `field`, or the Test key that triggered it. */
function byPersonOrTrigger<Shape extends z.ZodRawShape, Field extends string>(shape: Shape, field: Field) {
  const person = { [field]: z.uuid().meta({ description: 'The user who did it.' }) } as { [K in Field]: z.ZodUUID };
  return z.union([z.strictObject({ ...shape, ...person }), z.strictObject({ ...shape, triggeredBy: triggeredBySchema })]);
}

/**
 * A quote's outcome event: the quote as the API answers it (`QuoteResult`), narrowed to the
 * outcome (the receipt's `computation` is there exactly when it succeeded, `failure` when it failed).
 */
function quoteOutcomeSchema<Outcome extends 'succeeded' | 'requires_input' | 'failed'>(outcome: Outcome, receipt: z.ZodRawShape) {
  return z.strictObject({
    quoteIntent: z.intersection(quoteIntentSchema, z.looseObject({ status: z.literal(outcome) })),
    quoteReceipt: z.intersection(quoteReceiptSchema, z.looseObject({ outcome: z.literal(outcome), ...receipt })),
  });
}

/** A held account quote's review as the event carries it: the record's (`AccountQuoteRecord`), its decision the event's. */
const review = accountQuoteRecordSchema.shape.review.unwrap();
/** The signed quote as first answered, its state now, the review, and until when its price holds. */
const reviewedQuoteShape = { quote: producedQuoteSchema, expires_at: producedQuoteSchema.shape.expires_at.unwrap() };

export const EVENT_CATALOGUE: Record<EventType, EventDescription> = withMeanings({
  'quote_intent.succeeded': {
    businessScoped: true,
    data: quoteOutcomeSchema('succeeded', { computation: quoteComputationSchema, failure: z.null() }),
    example: {
      quoteIntent: quoteIntent('succeeded'),
      quoteReceipt: quoteReceipt('succeeded', {
        computation: {
          currency: 'USD',
          lineItems: [
            { kind: 'base', label: 'Window cleaning', amountMinor: 12000, ruleId: null },
            { kind: 'surcharge', label: 'Larger home', amountMinor: 3000, ruleId: 'large_home' },
            { kind: 'surcharge', label: 'Difficult access', amountMinor: 2250, ruleId: 'difficult_access' },
          ],
          totalMinor: 17250,
          paymentTerms: { depositBasisPoints: 2500, depositMinor: 4313, balanceDueMinor: 12937 },
          conditions: ['Prices include all materials and VAT.'],
          derivation: [
            { sequence: 0, phase: 'base', ruleId: null, ruleType: 'offeringBase', status: 'applied', reason: 'base price of "Window cleaning" is 12000', deltaMinor: 12000, runningTotalMinor: 12000 },
            { sequence: 1, phase: 'scopedModifier', ruleId: 'large_home', ruleType: 'percent', status: 'applied', reason: '…every rule of the book, one entry each…', deltaMinor: 3000, runningTotalMinor: 15000 },
          ],
        },
      }),
    },
  },
  'quote_intent.requires_input': {
    businessScoped: true,
    data: quoteOutcomeSchema('requires_input', { computation: z.null() }),
    example: { quoteIntent: quoteIntent('requires_input', '2026-11-26T16:45:48.423Z'), quoteReceipt: quoteReceipt('requires_input', { missingInputs: ['factors.storeys'] }) },
  },
  'quote_intent.failed': {
    businessScoped: true,
    data: quoteOutcomeSchema('failed', { computation: z.null(), failure: quoteReceiptSchema.shape.failure.unwrap() }),
    example: {
      quoteIntent: quoteIntent('failed'),
      quoteReceipt: quoteReceipt('failed', { failure: { code: 'unknown_factor_option', message: '"huge" is not an option of factor "home_size".' } }),
    },
  },
  'book_version.published': {
    data: z.strictObject({
      bookId: z.uuid(),
      bookVersionId: z.uuid(),
      number: z.number().int().min(1),
      artifactHash: z.string().meta({ description: 'sha256 (hex) of the version’s artifact.' }),
      environment: z.enum(['test', 'live']).meta({ description: 'Where it was published.' }),
    }),
    example: { bookId: IDS.book, bookVersionId: IDS.version, number: 3, artifactHash: '4f1c…a9 (sha256 hex)', environment: 'live' },
  },
  'experiment.started': {
    data: z.strictObject({ experiment: experimentSchema, startedBy: z.uuid().meta({ description: 'The person who started it.' }) }),
    example: { experiment: experiment('running', AT, null), startedBy: IDS.user },
  },
  'experiment.stopped': {
    data: z.strictObject({ experiment: experimentSchema, stoppedBy: z.uuid().meta({ description: 'The person who stopped it.' }) }),
    example: { experiment: experiment('stopped', '2026-11-25T16:45:48.423Z', '2026-12-02T09:00:00.000Z'), stoppedBy: IDS.user },
  },
  'experiment.concluded': {
    data: z.strictObject({
      experiment: experimentSchema,
      winner: z.strictObject({ arm: z.string().meta({ description: '`control`, `variant_1`…' }), versionId: z.uuid().meta({ description: 'The version that arm priced with.' }) }),
      concludedBy: z.uuid().meta({ description: 'The person who promoted it.' }),
    }),
    example: {
      experiment: experiment('concluded', AT, '2026-12-02T09:00:00.000Z', { arm: 'variant_1', versionId: IDS.variant }),
      winner: { arm: 'variant_1', versionId: IDS.variant },
      concludedBy: IDS.user,
    },
  },
  'experiment.paused': {
    data: z.strictObject({
      experiment: experimentSchema,
      arm: z.string().meta({ description: 'The paused arm (`variant_<n>`); its pausedAt and pauseReason are on it in `experiment.arms`.' }),
      reason: z.string().meta({ description: 'Why, in plain words.' }),
    }),
    example: {
      experiment: {
        ...experiment('running', AT, null),
        arms: [
          { name: 'control', versionId: IDS.version, weight: 90, basisPoints: 9000 },
          {
            name: 'variant_1',
            versionId: IDS.variant,
            weight: 10,
            basisPoints: 1000,
            pausedAt: '2026-11-28T10:01:00.000Z',
            pauseReason: "Pause variant_1: its acceptance rate is more than 5 points below the control's (95%: at least 7.4 points below)",
          },
        ],
      },
      arm: 'variant_1',
      reason: "Pause variant_1: its acceptance rate is more than 5 points below the control's (95%: at least 7.4 points below)",
    },
  },
  'api_key.created': {
    data: byPersonOrTrigger({ apiKey: apiKeyViewSchema }, 'createdBy'),
    example: { apiKey: apiKey(IDS.key, 'active'), createdBy: IDS.user } },
  'api_key.rotated': {
    data: byPersonOrTrigger(
      { apiKey: apiKeyViewSchema, successor: apiKeyViewSchema, graceMinutes: z.number().int().min(0).meta({ description: 'How long the old key keeps working.' }) },
      'rotatedBy',
    ),
    example: { apiKey: apiKey(IDS.key, 'rotating', '2026-11-26T16:45:48.423Z'), successor: apiKey(IDS.successor, 'active'), graceMinutes: 1440, rotatedBy: IDS.user },
  },
  'api_key.revoked': {
    data: z.union([
      ...byPersonOrTrigger({ apiKey: apiKeyViewSchema, reason: z.enum(['revoked', 'rotated_without_grace']) }, 'revokedBy').options,
      z.strictObject({ apiKey: apiKeyViewSchema, reason: z.literal('rotation_grace_ended') }),
    ]),
    example: { apiKey: apiKey(IDS.key, 'revoked', AT), reason: 'revoked', revokedBy: IDS.user },
  },
  'business_member.invited': {
    businessScoped: true,
    data: z.strictObject({ member: businessMemberSchema, invitedBy: z.uuid() }),
    example: { member: member('editor', 'invited'), invitedBy: IDS.user } },
  'business_member.updated': {
    businessScoped: true,
    data: z.strictObject({ member: businessMemberSchema, changedBy: z.uuid() }),
    example: { member: member('viewer', 'active'), changedBy: IDS.user } },
  'business_member.removed': {
    businessScoped: true,
    data: z.strictObject({ member: businessMemberSchema, changedBy: z.uuid() }),
    example: { member: member('viewer', 'removed'), changedBy: IDS.user } },
  'business.branding_updated': {
    businessScoped: true,
    data: z.strictObject({ businessId: z.uuid(), branding: businessSchema.shape.branding, changedBy: z.uuid() }),
    example: {
      businessId: IDS.business,
      branding: {
        displayName: 'Sparkle Home Services',
        logoUrl: null,
        primaryColor: '#0f766e',
        accentColor: '#f97316',
        nextStep: { label: 'Book this visit', url: 'https://book.sparkle.example' },
        acceptanceConsent: 'I agree that Sparkle Home Services may contact me about this quote.',
        acceptanceConsentIsDefault: true,
      },
      changedBy: IDS.user,
    },
  },
  'account_quote.created': {
    data: z.strictObject({ quote: producedQuoteSchema }),
    example: {
      quote: { ...heldQuote, state: 'quoted', disposition: 'send', message: 'Your quote is ready.' },
    },
  },
  'account_quote.approved': {
    businessScoped: true,
    data: z.strictObject({ ...reviewedQuoteShape, state: z.literal('quoted'), review: review.extend({ decision: z.literal('approved') }) }),
    example: {
      quote: heldQuote,
      state: 'quoted',
      review: { decision: 'approved', reason: null, reviewed_at: AT, reviewed_by: IDS.user },
      expires_at: '2026-12-25T16:45:48.423Z',
    },
  },
  'account_quote.declined': {
    businessScoped: true,
    data: z.strictObject({ ...reviewedQuoteShape, state: z.literal('awaiting_approval'), review: review.extend({ decision: z.literal('declined'), reason: z.string() }) }),
    example: {
      quote: heldQuote,
      state: 'awaiting_approval',
      review: { decision: 'declined', reason: 'We do not work in that area.', reviewed_at: AT, reviewed_by: IDS.user },
      expires_at: '2026-12-25T16:45:48.423Z',
    },
  },
  'quote_intent.accepted': {
    businessScoped: true,
    data: z.strictObject({
      // The lead's fields (`Lead`) as accepted; an erasure empties `contact` and `note` and sets `erasedAt`.
      acceptance: leadSchema
        .pick({ id: true, quoteIntentId: true, receiptId: true, receiptSignature: true, total: true, contact: true, note: true, preferredDate: true, consentText: true, createdAt: true })
        .extend({ erasedAt: z.iso.datetime().optional().meta({ description: 'Set when the personal data was erased (`contact` and `note` are null then).' }) })
        .strict(),
    }),
    example: {
      acceptance: {
        id: 'f6e5d4c3-b2a1-40f9-8e7d-6c5b4a3f2e1d',
        quoteIntentId: IDS.intent,
        receiptId: IDS.receipt,
        receiptSignature: EXAMPLE_SIGNATURE.value,
        total: { amountMinor: 17250, currency: 'USD' },
        contact: { name: 'Alex Rivera', email: 'alex@example.com', phone: '+1 555 0100' },
        note: 'The side gate is open.',
        preferredDate: '2026-12-03',
        consentText: 'I agree that Sparkle Home Services may contact me about this quote.',
        createdAt: AT,
      },
    },
  },
  'commitment.confirmed': {
    data: z.strictObject({ commitment: commitmentSchema }),
    example: {
      commitment: {
        object: 'commitment',
        commitment_id: 'e5d4c3b2-a1f0-49e8-a7b6-c5d4e3f2a1b0',
        quote_id: 'd4c3b2a1-0f9e-48d7-b6c5-a4b3c2d1e0f9',
        external_ref: 'order-1042',
        confirmed: true,
        confirmed_at: AT,
      },
    },
  },
  'webhook.test': {
    data: z.strictObject({ endpointId: z.uuid(), environment: z.enum(['test', 'live']), message: z.string() }),
    example: { endpointId: IDS.endpoint, environment: 'live', message: 'This is a test event.' },
  },
});

/** Each type's data and example with what it means (meanings.ts, which the portal's browser code reads). */
function withMeanings(data: Record<EventType, EventData>): Record<EventType, EventDescription> {
  return Object.fromEntries(EVENT_TYPES.map((type) => [type, { ...EVENT_MEANINGS[type], ...data[type] }])) as Record<EventType, EventDescription>;
}

/** An example delivery of the type, in the envelope every delivery has. */
export function exampleEnvelope(type: EventType) {
  return {
    id: '0e1d2c3b-4a59-4687-a5b4-c3d2e1f0a9b8',
    type,
    version: 1 as const,
    created: AT,
    ...(EVENT_CATALOGUE[type].businessScoped ? { businessId: IDS.business } : {}),
    data: EVENT_CATALOGUE[type].example,
  };
}

/** A delivery of the type as its body is (lib/webhooks/envelope.ts): the envelope, `data` by the type's schema. */
export function deliverySchema(type: EventType) {
  const { data, businessScoped } = EVENT_CATALOGUE[type];
  return z.strictObject({
    id: z.uuid().meta({ description: 'The event’s id, the same in every delivery of it (also sent as `Service-Event-Id`): deduplicate on it.' }),
    type: z.literal(type),
    version: z.literal(1),
    created: z.iso.datetime().meta({ description: 'When the event happened.' }),
    ...(businessScoped ? { businessId: z.uuid().meta({ description: 'The business the event is about.' }) } : {}),
    data,
  });
}
