'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { traceQuoteContract } from '@/app/v1/quote-intents/contract';
import { apiFetch } from '../../../_components/api';

export type QuoteTrace = AnswerOf<typeof traceQuoteContract>;

/** GET /v1/quote-intents/{id}/trace; `id` is a quote id or the id of the request that created it. */
export function useQuoteTrace(id: string) {
  return useQuery({
    queryKey: ['quote-trace', id],
    queryFn: () => apiFetch<typeof traceQuoteContract>(`/v1/quote-intents/${encodeURIComponent(id)}/trace`),
  });
}
