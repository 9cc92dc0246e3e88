import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';
import type { AuthorizedEndpoint } from './require-endpoint';
import type { EndpointStats } from './schemas';

export type { EndpointStats };

/**
 * GET /v1/webhook-endpoints/{id}/stats: how the endpoint has answered over the last 24 hours,
 * and its last failed attempt (whenever it was). The route has found the endpoint (requireEndpoint).
 */
export async function endpointStats({ db, now }: VerbContext, { endpoint }: { endpoint: AuthorizedEndpoint }): Promise<EndpointStats> {
  const since = new Date(now.getTime() - 86_400_000);
  const [[figures], [waiting], [failure]] = await Promise.all([
    sqlRows<{ attempts: number; succeeded: number; p50: number | null; p95: number | null }>(
      db,
      `SELECT count(*)::int AS attempts,
              count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299)::int AS succeeded,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY a.latency_ms) AS p50,
              percentile_disc(0.95) WITHIN GROUP (ORDER BY a.latency_ms) AS p95
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = $1::uuid AND a.started_at >= $2::timestamptz`,
      [endpoint.id, since],
    ),
    sqlRows<{ retrying: number; exhausted: number }>(
      db,
      `SELECT count(*) FILTER (WHERE status = 'pending' AND attempt_count > 0)::int AS retrying,
              count(*) FILTER (WHERE status = 'exhausted' AND updated_at >= $2::timestamptz)::int AS exhausted
         FROM webhook_deliveries WHERE endpoint_id = $1::uuid AND status IN ('pending', 'exhausted')`,
      [endpoint.id, since],
    ),
    sqlRows<{ at: Date; deliveryId: string; eventType: string; responseStatus: number | null; error: string | null }>(
      db,
      `SELECT a.started_at AS at, d.id::text AS "deliveryId", d.event_type AS "eventType", a.response_status AS "responseStatus", a.error
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.endpoint_id = $1::uuid AND (a.response_status IS NULL OR a.response_status NOT BETWEEN 200 AND 299)
        ORDER BY a.started_at DESC LIMIT 1`,
      [endpoint.id],
    ),
  ]);
  return {
    since: since.toISOString(),
    attempts: figures.attempts,
    succeeded: figures.succeeded,
    successRate: figures.attempts === 0 ? null : Math.round((figures.succeeded * 1000) / figures.attempts) / 10,
    p50LatencyMs: figures.p50,
    p95LatencyMs: figures.p95,
    retrying: waiting.retrying,
    exhausted: waiting.exhausted,
    lastFailure: failure ? { ...failure, at: new Date(failure.at).toISOString() } : null,
  };
}
