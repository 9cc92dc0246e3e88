import type { BusinessAccess } from '../auth/permissions';
import { readDbOf, type VerbContext } from '../context/verb-context';
import type { BusinessOverview } from '../businesses/schemas';
import { countAccountQuotesToActOn } from '../accounts/store';
import { countLeads } from '../leads/store';
import { PIPELINE_COUNT_CAP } from './pipeline-count';
import { countApiCalls, countExpiringIntents, countQuotesPerDay, countWebhookAttempts, readSetupChecklist } from './store';

export type { BusinessOverview };

/** Days of quotes the overview charts, today included. */
const OVERVIEW_DAYS = 14;

/**
 * GET /v1/businesses/{id}/overview: what a business looks at first — its Live quotes per day by
 * outcome, what waits for it (held quotes, leads, prices about to expire), how its API calls and
 * webhooks fare, and how far it has come in setting up. The route
 * has checked that the person may read the business (requireBusinessReader). Days are UTC.
 */
export async function businessOverview(ctx: VerbContext, { access }: { access: BusinessAccess }): Promise<BusinessOverview> {
  // Counts that may lag a moment: from the read replica when there is one.
  const db = readDbOf(ctx);
  const { now } = ctx;
  const businessId = access.business.id;
  const projectId = access.connection?.projectId ?? null;
  const liveEnvironmentId = access.connection?.liveEnvironmentId ?? null;
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (OVERVIEW_DAYS - 1)));
  const week = new Date(now.getTime() - 7 * 86_400_000);
  const weekAhead = new Date(now.getTime() + 7 * 86_400_000);
  const live = projectId && liveEnvironmentId ? { projectId, environmentId: liveEnvironmentId } : null;
  const [perDay, calls, hooks, setup, accountQuotes, leads, expiringIntents] = await Promise.all([
    countQuotesPerDay(db, businessId, liveEnvironmentId, firstDay),
    countApiCalls(db, access.business, week),
    countWebhookAttempts(db, liveEnvironmentId, week),
    readSetupChecklist(db, businessId, projectId, liveEnvironmentId),
    live ? countAccountQuotesToActOn(db, { ...live, now, until: weekAhead }) : { held: 0, expiringSoon: 0 },
    countLeads(db, { businessId, since: week }, PIPELINE_COUNT_CAP),
    live ? countExpiringIntents(db, { businessId, environmentId: live.environmentId, now, until: weekAhead }, PIPELINE_COUNT_CAP) : 0,
  ]);
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  return {
    quotesPerDay: Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
      const day = new Date(firstDay.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return byDay.get(day) ?? { day, succeeded: 0, requiresInput: 0, failed: 0 };
    }),
    apiCalls: { ...calls, errorRate: calls.total === 0 ? null : Math.round((calls.failed * 1000) / calls.total) / 10 },
    webhooks: { ...hooks, successRate: hooks.attempts === 0 ? null : Math.round((hooks.succeeded * 1000) / hooks.attempts) / 10 },
    checklist: setup,
    pipeline: {
      heldQuotes: accountQuotes.held,
      leadsThisWeek: leads.thisWeek,
      newLeads: leads.waiting,
      expiringSoon: Math.min(expiringIntents + accountQuotes.expiringSoon, PIPELINE_COUNT_CAP),
    },
  };
}
