'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../_components/api';
import { webhookQueryKeys, type Delivery, type DeliveryFilter, type Endpoint } from './types';

export function useEndpoints(projectId: string) {
  return useQuery({
    queryKey: webhookQueryKeys.endpoints(projectId),
    queryFn: () => apiFetch<{ endpoints: Endpoint[] }>(`/v1/webhook-endpoints?projectId=${encodeURIComponent(projectId)}`),
  });
}

export function useEndpoint(endpointId: string) {
  return useQuery({
    queryKey: ['webhook-endpoint', endpointId],
    queryFn: () => apiFetch<{ endpoint: Endpoint }>(`/v1/webhook-endpoints/${encodeURIComponent(endpointId)}`),
  });
}

/**
 * While a shown delivery waits for an attempt due soon, refresh every 2 s so people see it
 * move; one waiting on a later retry (30 s to 2 h away) only needs an occasional look.
 */
export function refreshInterval(deliveries: Delivery[]): number | false {
  const pending = deliveries.filter((d) => d.status === 'pending');
  if (pending.length === 0) return false;
  const dueSoon = pending.some((d) => !d.nextAttemptAt || Date.parse(d.nextAttemptAt) - Date.now() < 60_000);
  return dueSoon ? 2_000 : 15_000;
}

/** GET /v1/webhook-deliveries for one endpoint, newest first, a page at a time. */
export function useDeliveries(filter: DeliveryFilter) {
  return useInfiniteQuery({
    queryKey: webhookQueryKeys.deliveries(filter),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ endpointId: filter.endpointId, limit: '25' });
      if (filter.status) query.set('status', filter.status);
      if (filter.eventType) query.set('eventType', filter.eventType);
      if (pageParam) query.set('cursor', pageParam);
      return apiFetch<{ deliveries: Delivery[]; nextCursor: string | null }>(`/v1/webhook-deliveries?${query}`);
    },
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) => refreshInterval(query.state.data?.pages.flatMap((p) => p.deliveries) ?? []),
  });
}

export function useDelivery(deliveryId: string) {
  return useQuery({
    queryKey: webhookQueryKeys.delivery(deliveryId),
    queryFn: () => apiFetch<{ delivery: Delivery }>(`/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}`),
    refetchInterval: (query) => refreshInterval(query.state.data ? [query.state.data.delivery] : []),
  });
}
