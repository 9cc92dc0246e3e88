import type { BusinessAccess } from '../auth/permissions';
import { readDbOf, type VerbContext } from '../context/verb-context';
import { mainCurrency, pricePercentiles, type PricePoint } from './percentiles';
import type { BusinessFunnel } from './schemas';
import { FUNNEL_DEFAULT_WEEKS } from './weeks';
import { countAcceptedAndWon, countCommitted, countFunnelOutcomes, readFunnelPrices, readPublishedOfferings, readTopUnanswered } from './store';

export type { BusinessFunnel };

const DAY_MS = 86_400_000;

/**
 * GET /v1/businesses/{id}/funnel: the business's Live quotes week by week (ISO weeks, UTC,
 * this one last) and in total — made, priced, needing answers, accepted, committed, won — with
 * the spread of priced totals and the questions customers most often leave unanswered. The
 * route has checked that the person may read the business (requireBusinessReader), as the Overview.
 */
export async function businessFunnel(
  ctx: VerbContext,
  { access, offeringId = null, weeks = FUNNEL_DEFAULT_WEEKS }: { access: BusinessAccess; offeringId?: string | null; weeks?: number },
): Promise<BusinessFunnel> {
  const db = readDbOf(ctx);
  const { now } = ctx;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const since = new Date(monday - (weeks - 1) * 7 * DAY_MS);
  const starts = Array.from({ length: weeks }, (_, i) => isoDay(since.getTime() + i * 7 * DAY_MS));
  const projectId = access.connection?.projectId ?? null;
  const environmentId = access.connection?.liveEnvironmentId ?? null;

  const where = environmentId ? { businessId: access.business.id, environmentId, since, offeringId } : null;
  const [outcomes, prices, unanswered, accepted, committed, offerings] = where
    ? await Promise.all([
        countFunnelOutcomes(db, where),
        readFunnelPrices(db, where),
        readTopUnanswered(db, where),
        countAcceptedAndWon(db, where),
        projectId ? countCommitted(db, { ...where, projectId }) : [],
        projectId ? readPublishedOfferings(db, projectId, where.environmentId) : [],
      ])
    : [[], [], [], [], [], []];

  const byWeek = <T extends { week: string }>(rows: T[]) => new Map(rows.map((r) => [r.week, r]));
  const [o, a, c] = [byWeek(outcomes), byWeek(accepted), byWeek(committed)];
  const currency = mainCurrency(prices);
  const pointsOf = (week: string): PricePoint[] => prices.filter((p) => p.week === week);
  const rows = starts.map((start) => ({
    week: isoWeek(start),
    start,
    quotes: o.get(start)?.quotes ?? 0,
    priced: o.get(start)?.priced ?? 0,
    requiresInput: o.get(start)?.requiresInput ?? 0,
    accepted: a.get(start)?.accepted ?? 0,
    committed: c.get(start)?.committed ?? 0,
    won: a.get(start)?.won ?? 0,
    price: pricePercentiles(pointsOf(start), currency),
  }));
  const sum = (key: 'quotes' | 'priced' | 'requiresInput' | 'accepted' | 'committed' | 'won') => rows.reduce((n, w) => n + w[key], 0);
  return {
    environment: 'live',
    offeringId,
    offerings,
    from: starts[0],
    weeks: rows,
    total: {
      quotes: sum('quotes'),
      priced: sum('priced'),
      requiresInput: sum('requiresInput'),
      accepted: sum('accepted'),
      committed: sum('committed'),
      won: sum('won'),
      price: pricePercentiles(prices, currency),
    },
    unanswered,
  };
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `YYYY-Www` of the ISO week starting on the Monday `start` (its Thursday's year). */
function isoWeek(start: string): string {
  const thursday = new Date(Date.parse(`${start}T00:00:00Z`) + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}
