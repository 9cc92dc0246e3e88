import type { VerbContext } from '../context/verb-context';
import type { AuthorizedEndpoint } from './require-endpoint';
import type { EndpointStats } from './schemas';
import { readEndpointFigures } from './store';

export type { EndpointStats };

/**
 * GET /v1/webhook-endpoints/{id}/stats: how the endpoint has answered over the last 24 hours,
 * and its last failed attempt (whenever it was). The route has found the endpoint (requireEndpoint).
 */
export async function endpointStats({ db, now }: VerbContext, { endpoint }: { endpoint: AuthorizedEndpoint }): Promise<EndpointStats> {
  const since = new Date(now.getTime() - 86_400_000);
  const { figures, waiting, failure } = await readEndpointFigures(db, endpoint.id, since);
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
