import type { AnswerOf } from '@/lib/http/contract';
import type { createPublicQuoteContract } from '@/app/v1/public_quotes/contract';

/** A quote and its receipt, as POST (and GET) /v1/public_quotes answer it: typed by the contract. */
export type QuoteResult = AnswerOf<typeof createPublicQuoteContract>;

export type PublicQuoteRequest = {
  businessId: string;
  offeringId: string;
  factors: Record<string, string | null>;
  idempotencyKey: string;
};

/** What the page does next after one POST /v1/public_quotes. */
export type SubmissionOutcome =
  | { kind: 'quoted'; result: QuoteResult }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'conflict' }
  | { kind: 'error'; message: string };

const NETWORK_MESSAGE = "We couldn't reach the quote service. Check your connection and try again.";

export async function submitPublicQuote(request: PublicQuoteRequest): Promise<SubmissionOutcome> {
  let response: Response;
  try {
    response = await fetch('/v1/public_quotes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
  } catch {
    return { kind: 'error', message: NETWORK_MESSAGE };
  }
  const body = (await response.json().catch(() => null)) as
    | { data: QuoteResult }
    | { error: { code: string; requestId?: string } }
    | null;
  if (response.ok && body && 'data' in body) return { kind: 'quoted', result: body.data };

  const error = body && 'error' in body ? body.error : null;
  switch (error?.code) {
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')) };
    case 'idempotency_conflict':
      return { kind: 'conflict' };
    case 'quote_surface_unavailable':
      return { kind: 'error', message: 'Quotes are not available for this business right now. Please try again later.' };
    case 'invalid_quote_request':
      return { kind: 'error', message: "Some of your answers couldn't be read. Please check them and try again." };
    default: {
      const requestId = error?.requestId ?? response.headers.get('x-request-id');
      return {
        kind: 'error',
        message: `Something went wrong on our side. Please try again${requestId ? ` (reference ${requestId})` : ''}.`,
      };
    }
  }
}

function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
}

/**
 * One key per distinct attempt. randomUUID exists only in secure contexts (HTTPS, localhost);
 * getRandomValues works everywhere, so a page served over plain HTTP still gets a key.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `hosted_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
