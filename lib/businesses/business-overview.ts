import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';
import type { BusinessOverview } from './schemas';

export type { BusinessOverview };

/** Days of quotes the overview charts, today included. */
const OVERVIEW_DAYS = 14;

/**
 * GET /v1/businesses/{id}/overview: what a business looks at first — its Live quotes per day by
 * outcome, how its API calls and webhooks fare, and how far it has come in setting up. The route
 * has checked that the person may read the business (requireBusinessReader). Days are UTC.
 */
export async function businessOverview({ db, now }: VerbContext, { access }: { access: BusinessAccess }): Promise<BusinessOverview> {
  const businessId = access.business.id;
  const projectId = access.connection?.projectId ?? null;
  const liveEnvironmentId = access.connection?.liveEnvironmentId ?? null;
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (OVERVIEW_DAYS - 1)));
  const week = new Date(now.getTime() - 7 * 86_400_000);
  const [perDay, [calls], [hooks], [setup]] = await Promise.all([
    sqlRows<{ day: string; succeeded: number; requiresInput: number; failed: number }>(
      db,
      `SELECT to_char(date_trunc('day', qi.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
              count(*) FILTER (WHERE r.outcome = 'succeeded')::int AS succeeded,
              count(*) FILTER (WHERE r.outcome = 'requires_input')::int AS "requiresInput",
              count(*) FILTER (WHERE r.outcome = 'failed')::int AS failed
         FROM quote_intents qi JOIN quote_receipts r ON r.quote_intent_id = qi.id
        WHERE qi.business_id = $1::uuid AND qi.created_at >= $2::timestamptz AND qi.environment_id = $3::uuid
        GROUP BY 1`,
      [businessId, firstDay, liveEnvironmentId],
    ),
    sqlRows<{ total: number; failed: number }>(
      db,
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status >= 400)::int AS failed
         FROM request_logs WHERE workspace_id = $1::uuid AND business_id = $2::uuid AND created_at >= $3::timestamptz AND NOT portal`,
      [access.business.workspaceId, businessId, week],
    ),
    sqlRows<{ attempts: number; succeeded: number }>(
      db,
      `SELECT count(*)::int AS attempts, count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299)::int AS succeeded
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.environment_id = $1::uuid AND a.started_at >= $2::timestamptz`,
      [liveEnvironmentId, week],
    ),
    sqlRows<{ bookPublished: boolean; apiKeyCreated: boolean; quoteMade: boolean; endpointAdded: boolean }>(
      db,
      `SELECT EXISTS (SELECT 1 FROM publications p JOIN projects pr ON pr.primary_book_id = p.book_id
                       WHERE pr.id = $2::uuid AND p.environment_id = $3::uuid) AS "bookPublished",
              EXISTS (SELECT 1 FROM api_keys k WHERE k.project_id = $2::uuid AND k.status <> 'revoked') AS "apiKeyCreated",
              EXISTS (SELECT 1 FROM quote_intents qi WHERE qi.business_id = $1::uuid) AS "quoteMade",
              EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.project_id = $2::uuid AND e.deleted_at IS NULL) AS "endpointAdded"`,
      [businessId, projectId, liveEnvironmentId],
    ),
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
  };
}
