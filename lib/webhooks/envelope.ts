/** The body of every delivery (DESIGN.md, "Events and webhooks"). Built the same way each time. */
export type EventRow = {
  id: string;
  type: string;
  version: number;
  createdAt: Date;
  businessId: string | null;
  data: unknown;
};

export type DeliveryEnvelope = { id: string; type: string; version: number; created: string; businessId?: string; data: Record<string, unknown> };

export function deliveryEnvelope(event: EventRow): DeliveryEnvelope {
  return {
    id: event.id,
    type: event.type,
    version: event.version,
    created: event.createdAt.toISOString(),
    ...(event.businessId ? { businessId: event.businessId } : {}),
    data: event.data as Record<string, unknown>,
  };
}

export function deliveryBody(event: EventRow): string {
  return JSON.stringify(deliveryEnvelope(event));
}
