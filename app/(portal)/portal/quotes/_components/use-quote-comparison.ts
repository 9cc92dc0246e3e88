'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/http/contract';
import type { compareQuotesContract } from '@/app/v1/quote-intents/contract';
import { apiFetch } from '../../../_components/api';

export type QuoteComparison = AnswerOf<typeof compareQuotesContract>;

/** GET /v1/quote-intents/{a}/comparison?with={b}: why B's price differs from A's. */
export function useQuoteComparison(a: string, b: string) {
  return useQuery({
    queryKey: ['quote-comparison', a, b],
    queryFn: () => apiFetch<typeof compareQuotesContract>(`/v1/quote-intents/${encodeURIComponent(a)}/comparison?${new URLSearchParams({ with: b })}`),
    // Stored quotes never change: their comparison neither.
    staleTime: Infinity,
  });
}
