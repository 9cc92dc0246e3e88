'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { searchRequestLogsContract } from '@/app/v1/request-logs/contract';
import { apiFetch } from '../../../_components/api';

export type RequestLogPage = AnswerOf<typeof searchRequestLogsContract>;
export type RequestLog = RequestLogPage['logs'][number];

/** One page of GET /v1/request-logs for an API query string (see request-log-filters). */
export function useRequestLogs(apiQuery: string) {
  return useQuery({
    queryKey: ['request-logs', apiQuery],
    queryFn: () => apiFetch<typeof searchRequestLogsContract>(`/v1/request-logs${apiQuery ? `?${apiQuery}` : ''}`),
  });
}
