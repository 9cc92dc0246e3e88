// Shapes of the /v1 webhook answers this area reads (lib/webhooks/schemas.ts is the source).
import type { DeliveryView, EndpointView } from '@/lib/webhooks/schemas';
import type { EventType } from '@/lib/events/catalogue';

export type Endpoint = EndpointView;
export type Delivery = DeliveryView;
export type Attempt = Delivery['attempts'][number];
export type DeliveryStatus = Delivery['status'];

/** A signing secret the API returned once, held only until the person presses Done. */
export type RevealedSigningSecret =
  | { kind: 'created'; endpoint: Endpoint; secret: string }
  | { kind: 'rotated'; endpoint: Endpoint; secret: string };

/** What each event means to a business, in the order people look for them. */
export const EVENT_TYPE_MEANING: Record<EventType, string> = {
  'quote_intent.succeeded': 'a quote was priced',
  'quote_intent.requires_input': 'a quote needs more answers',
  'quote_intent.failed': 'a quote could not be priced',
  'book_version.published': 'a price book version was published',
  'api_key.created': 'an API key was created',
  'api_key.rotated': 'an API key was rotated',
  'api_key.revoked': 'an API key stopped working',
  'business_member.invited': 'someone was invited to a business (Live only)',
  'business_member.updated': 'a member’s role changed (Live only)',
  'business_member.removed': 'a member was removed (Live only)',
  'business.branding_updated': 'the hosted page’s branding changed (Live only)',
  'account_quote.created': 'an integration stored a quote (account surface)',
  'commitment.confirmed': 'a commitment was confirmed on a quote (Live only)',
  'webhook.test': 'a test event you sent',
};

export const webhookQueryKeys = {
  endpoints: (projectId: string) => ['webhook-endpoints', projectId] as const,
  allDeliveries: ['webhook-deliveries'] as const,
  deliveries: (filter: DeliveryFilter) => ['webhook-deliveries', 'list', filter] as const,
  delivery: (id: string) => ['webhook-deliveries', 'one', id] as const,
};

export type DeliveryFilter = { endpointId: string; status: DeliveryStatus | null; eventType: string | null };
