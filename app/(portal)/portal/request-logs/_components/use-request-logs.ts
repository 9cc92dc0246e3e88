'use client';

import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { requestLogSchema } from '@/lib/requestlog/schemas';
import { apiFetch } from '../../../_components/api';

export type RequestLog = z.output<typeof requestLogSchema>;
export type RequestLogPage = { logs: RequestLog[]; nextCursor: string | null };

/** One page of GET /v1/request-logs for an API query string (see request-log-filters). */
export function useRequestLogs(apiQuery: string) {
  return useQuery({
    queryKey: ['request-logs', apiQuery],
    queryFn: () => apiFetch<RequestLogPage>(`/v1/request-logs${apiQuery ? `?${apiQuery}` : ''}`),
  });
}
