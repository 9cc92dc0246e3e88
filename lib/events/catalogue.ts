/** Every event type the service emits; docs/events.md describes each payload. */
export const EVENT_TYPES = [
  'quote_intent.succeeded',
  'quote_intent.requires_input',
  'quote_intent.failed',
  'book_version.published',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'business_member.invited',
  'business_member.updated',
  'business_member.removed',
  'business.branding_updated',
  'account_quote.created',
  'commitment.confirmed',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
