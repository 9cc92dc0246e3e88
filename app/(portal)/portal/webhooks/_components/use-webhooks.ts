'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { getDeliveryContract, getEndpointContract, listDeliveriesContract, listEndpointsContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { refreshInterval } from './refresh-interval';
import { webhookQueryKeys, type DeliveryFilter } from './types';

export function useEndpoints(projectId: string) {
  return useQuery({
    queryKey: webhookQueryKeys.endpoints(projectId),
    queryFn: () => apiFetch<typeof listEndpointsContract>(`/v1/webhook-endpoints?projectId=${encodeURIComponent(projectId)}`),
  });
}

export function useEndpoint(endpointId: string) {
  return useQuery({
    queryKey: ['webhook-endpoint', endpointId],
    queryFn: () => apiFetch<typeof getEndpointContract>(`/v1/webhook-endpoints/${encodeURIComponent(endpointId)}`),
  });
}

/**
 * GET /v1/webhook-deliveries for one endpoint, newest first, a page at a time. A disabled
 * endpoint sends nothing (disabling it canceled what was pending), so there is nothing to watch.
 */
export function useDeliveries(filter: DeliveryFilter, endpointEnabled: boolean) {
  return useInfiniteQuery({
    queryKey: webhookQueryKeys.deliveries(filter),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ endpointId: filter.endpointId, limit: '25' });
      if (filter.status === 'failing') query.set('failing', 'true');
      else if (filter.status) query.set('status', filter.status);
      if (filter.eventType) query.set('eventType', filter.eventType);
      if (pageParam) query.set('cursor', pageParam);
      return apiFetch<typeof listDeliveriesContract>(`/v1/webhook-deliveries?${query}`);
    },
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) => endpointEnabled && refreshInterval(query.state.data?.pages.flatMap((p) => p.deliveries) ?? []),
  });
}

export function useDelivery(deliveryId: string) {
  return useQuery({
    queryKey: webhookQueryKeys.delivery(deliveryId),
    queryFn: () => apiFetch<typeof getDeliveryContract>(`/v1/webhook-deliveries/${encodeURIComponent(deliveryId)}`),
    refetchInterval: (query) => refreshInterval(query.state.data ? [query.state.data.delivery] : []),
  });
}
