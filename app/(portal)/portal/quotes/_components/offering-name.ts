import type { BusinessQuote } from '@/lib/quotes/schemas';

/** A quote's offering in words: its name, else that none was chosen or that the book has no such service (never a raw id). */
export function offeringName(quote: Pick<BusinessQuote, 'offeringId' | 'offeringLabel'>): string {
  return quote.offeringLabel ?? (quote.offeringId === '' ? 'No service chosen' : 'Unknown service');
}
