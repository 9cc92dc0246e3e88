import type { AnswerOf } from '@/lib/http/contract';
import type { listBusinessQuotesContract } from '@/app/v1/businesses/contract';

/** A quote as the business's quote lists answer it (GET /v1/businesses/{id}/quotes, GET /v1/quote-intents). */
export type BusinessQuote = AnswerOf<typeof listBusinessQuotesContract>['quotes'][number];

/** A quote's offering in words: its name, else that none was chosen or that the book has no such service (never a raw id). */
export function offeringName(quote: Pick<BusinessQuote, 'offeringId' | 'offeringLabel'>): string {
  return quote.offeringLabel ?? (quote.offeringId === '' ? 'No service chosen' : 'Unknown service');
}
