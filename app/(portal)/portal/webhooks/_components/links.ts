/** The deliveries page of one endpoint, optionally of one event type. */
export function deliveriesHref(endpoint: { id: string; projectId: string }, eventType?: string) {
  const query = new URLSearchParams({ project: endpoint.projectId, endpoint: endpoint.id });
  if (eventType) query.set('eventType', eventType);
  return `/portal/webhooks/deliveries?${query}`;
}

export const deliveryHref = (deliveryId: string) => `/portal/webhooks/deliveries/${deliveryId}`;
