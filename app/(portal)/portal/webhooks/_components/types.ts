// Shapes of the /v1 webhook answers this area reads (lib/webhooks/schemas.ts is the source).
import type { DeliveryView, EndpointView } from '@/lib/webhooks/schemas';

export type Endpoint = EndpointView;
export type Delivery = DeliveryView;
export type Attempt = Delivery['attempts'][number];
export type DeliveryStatus = Delivery['status'];

/** A signing secret the API returned once, held only until the person presses Done. */
export type RevealedSigningSecret =
  | { kind: 'created'; endpoint: Endpoint; secret: string }
  | { kind: 'rotated'; endpoint: Endpoint; secret: string };

export const webhookQueryKeys = {
  endpoints: (projectId: string) => ['webhook-endpoints', projectId] as const,
  allDeliveries: ['webhook-deliveries'] as const,
  deliveries: (filter: DeliveryFilter) => ['webhook-deliveries', 'list', filter] as const,
  delivery: (id: string) => ['webhook-deliveries', 'one', id] as const,
};

/** `failing`: a failed attempt and no success yet (retrying, or given up): what someone fixing an endpoint looks for. */
export type DeliveryFilter = { endpointId: string; status: DeliveryStatus | 'failing' | null; eventType: string | null };
