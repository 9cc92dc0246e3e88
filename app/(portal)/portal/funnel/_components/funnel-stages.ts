import type { AnswerOf } from '@/lib/http/contract';
import type { businessFunnelContract } from '@/app/v1/businesses/contract';

/** GET /v1/businesses/{id}/funnel's `funnel`, typed by its contract. */
export type BusinessFunnel = AnswerOf<typeof businessFunnelContract>['funnel'];

export type FunnelStage = { key: string; label: string; count: number; share: number | null; of: string | null };

type Counts = BusinessFunnel['total'];

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part * 1000) / whole) / 10);

/**
 * The funnel's stages in reading order, each with its share of the stage it follows from: priced
 * and needing answers of the quotes, accepted and committed of the priced, won of the accepted.
 */
export function funnelStages(t: Counts): FunnelStage[] {
  return [
    { key: 'quotes', label: 'Quotes', count: t.quotes, share: null, of: null },
    { key: 'priced', label: 'Priced', count: t.priced, share: share(t.priced, t.quotes), of: 'of quotes' },
    { key: 'requiresInput', label: 'Needed answers', count: t.requiresInput, share: share(t.requiresInput, t.quotes), of: 'of quotes' },
    { key: 'accepted', label: 'Accepted', count: t.accepted, share: share(t.accepted, t.priced), of: 'of priced' },
    { key: 'committed', label: 'Committed', count: t.committed, share: null, of: null },
    { key: 'won', label: 'Won', count: t.won, share: share(t.won, t.accepted), of: 'of accepted' },
  ];
}

/** "3 Nov" for the Monday a week starts on. */
export function weekLabel(start: string): string {
  return new Date(`${start}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** "12 customers left 'Storeys' unanswered". */
export function unansweredSentence(u: BusinessFunnel['unanswered'][number]): string {
  const who = u.quotes === 1 ? '1 customer' : `${u.quotes.toLocaleString()} customers`;
  const what = u.input === 'offeringId' ? 'which service they wanted' : `‘${u.label ?? u.factorId ?? u.input}’`;
  return `${who} left ${what} unanswered`;
}
