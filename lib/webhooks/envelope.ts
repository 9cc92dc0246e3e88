/** The body of every delivery (DESIGN.md, "Events and webhooks"). Built the same way each time. */
export type EventRow = {
  id: string;
  type: string;
  version: number;
  createdAt: Date;
  businessId: string | null;
  data: unknown;
};

export function deliveryBody(event: EventRow): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    version: event.version,
    created: event.createdAt.toISOString(),
    ...(event.businessId ? { businessId: event.businessId } : {}),
    data: event.data,
  });
}
