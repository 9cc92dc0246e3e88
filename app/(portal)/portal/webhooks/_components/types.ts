import type { AnswerOf } from '@/lib/http/contract';
import type { createEndpointContract, listDeliveriesContract, listEndpointsContract, rotateEndpointSecretContract } from '@/app/v1/webhook-endpoints/contract';

// The /v1 webhook answers this area reads, typed by their contract (app/v1/webhook-endpoints/contract.ts).
export type Endpoint = AnswerOf<typeof listEndpointsContract>['endpoints'][number];
export type Delivery = AnswerOf<typeof listDeliveriesContract>['deliveries'][number];
export type Attempt = Delivery['attempts'][number];
export type DeliveryStatus = Delivery['status'];

/**
 * A signing secret the API returned once, held only until the person presses Done. The answer's
 * secret is null only when it replays an earlier request with the same Idempotency-Key (the
 * portal sends none on these calls): only a secret that came is revealed.
 */
export type RevealedSigningSecret =
  | { kind: 'created'; endpoint: AnswerOf<typeof createEndpointContract>['endpoint']; secret: NonNullable<AnswerOf<typeof createEndpointContract>['secret']> }
  | { kind: 'rotated'; endpoint: AnswerOf<typeof rotateEndpointSecretContract>['endpoint']; secret: NonNullable<AnswerOf<typeof rotateEndpointSecretContract>['secret']> };

export const webhookQueryKeys = {
  endpoints: (projectId: string) => ['webhook-endpoints', projectId] as const,
  allDeliveries: ['webhook-deliveries'] as const,
  deliveries: (filter: DeliveryFilter) => ['webhook-deliveries', 'list', filter] as const,
  delivery: (id: string) => ['webhook-deliveries', 'one', id] as const,
};

/** `failing`: a failed attempt and no success yet (retrying, or given up): what someone fixing an endpoint looks for. */
export type DeliveryFilter = { endpointId: string; status: DeliveryStatus | 'failing' | null; eventType: string | null };
