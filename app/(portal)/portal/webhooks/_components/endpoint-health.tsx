'use client';

import { useQuery } from '@tanstack/react-query';
import { IntentLink } from '../../../../_components/intent-link';
import type { endpointStatsContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { formatTime } from '../../../_components/ui';
import type { Endpoint } from './types';

export const endpointStatsKey = (endpointId: string) => ['webhook-endpoint-stats', endpointId] as const;

/** How the endpoint has answered over the last 24 hours, and its last failure. */
export function EndpointHealth({ endpoint }: { endpoint: Endpoint }) {
  const stats = useQuery({
    queryKey: endpointStatsKey(endpoint.id),
    queryFn: () => apiFetch<typeof endpointStatsContract>(`/v1/webhook-endpoints/${endpoint.id}/stats`).then((d) => d.stats),
    refetchInterval: 30_000,
  });
  if (!stats.data) return <span className="muted">{stats.isError ? 'Figures not available right now.' : 'Reading the last 24 hours…'}</span>;
  const s = stats.data;
  return (
    <span data-testid="endpoint-health">
      {s.attempts === 0 ? (
        'No attempts in the last 24 hours'
      ) : (
        <>
          <strong className={s.successRate !== null && s.successRate < 95 ? 'danger-text' : undefined}>{s.successRate}%</strong> of {s.attempts.toLocaleString()}{' '}
          attempts answered 2xx in the last 24 hours · median {s.p50LatencyMs} ms, p95 {s.p95LatencyMs} ms
        </>
      )}
      {(s.retrying > 0 || s.exhausted > 0) && (
        <>
          {' · '}
          {s.retrying > 0 && `${s.retrying} retrying`}
          {s.retrying > 0 && s.exhausted > 0 && ', '}
          {s.exhausted > 0 && `${s.exhausted} exhausted`}
        </>
      )}
      {s.lastFailure && (
        <span className="muted" style={{ display: 'block' }}>
          Last failure {formatTime(s.lastFailure.at)}: {s.lastFailure.responseStatus ?? s.lastFailure.error ?? 'no answer'} on{' '}
          <code>{s.lastFailure.eventType}</code> · <IntentLink href={`/portal/webhooks/deliveries/${s.lastFailure.deliveryId}`}>see it</IntentLink>
        </span>
      )}
    </span>
  );
}
