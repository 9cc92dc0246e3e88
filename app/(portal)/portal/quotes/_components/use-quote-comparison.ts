'use client';

import { useQuery } from '@tanstack/react-query';
import type { QuoteComparison } from '@/lib/quotes/comparison-schemas';
import { apiFetch } from '../../../_components/api';

export type { QuoteComparison };

/** GET /v1/quote-intents/{a}/comparison?with={b}: why B's price differs from A's. */
export function useQuoteComparison(a: string, b: string) {
  return useQuery({
    queryKey: ['quote-comparison', a, b],
    queryFn: () => apiFetch<QuoteComparison>(`/v1/quote-intents/${encodeURIComponent(a)}/comparison?${new URLSearchParams({ with: b })}`),
    // Stored quotes never change: their comparison neither.
    staleTime: Infinity,
  });
}
