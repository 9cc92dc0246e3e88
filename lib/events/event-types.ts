/**
 * Every event type the service emits, by name: what the outbox (record-event, store) and the
 * webhook filters know of events. What each means, its `data` schema and an example are the
 * catalogue's (lib/event-catalogue/catalogue.ts), which sits above the domains whose schemas it
 * names, as the outbox sits below the domains that write to it.
 */
export const EVENT_TYPES = [
  'quote_intent.succeeded',
  'quote_intent.requires_input',
  'quote_intent.failed',
  'book_version.published',
  'experiment.started',
  'experiment.stopped',
  'experiment.concluded',
  'experiment.paused',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'business_member.invited',
  'business_member.updated',
  'business_member.removed',
  'business.branding_updated',
  'account_quote.created',
  'account_quote.approved',
  'account_quote.declined',
  'quote_intent.accepted',
  'commitment.confirmed',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
