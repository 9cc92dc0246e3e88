'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { replayExhaustedContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import { endpointStatsKey } from './endpoint-health';
import { webhookQueryKeys, type Endpoint } from './types';

const WINDOWS = { '1h': ['the last hour', 3_600_000], '24h': ['the last 24 hours', 86_400_000], '7d': ['the last 7 days', 7 * 86_400_000], '30d': ['the last 30 days', 30 * 86_400_000] } as const;

/**
 * "Replay every exhausted or canceled delivery since …": counts them first (a dry run), then sends them all
 * again, each a replay linked to its original.
 */
export function BulkReplayForm({ endpoint, onClose }: { endpoint: Endpoint; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [window, setWindow] = useState<keyof typeof WINDOWS>('24h');
  // One instant per choice, so the count and the replay speak of the same deliveries.
  const since = useMemo(() => new Date(Date.now() - WINDOWS[window][1]).toISOString(), [window]);
  const count = useQuery({
    queryKey: ['webhook-replays', endpoint.id, since],
    queryFn: () =>
      apiFetch<typeof replayExhaustedContract>(`/v1/webhook-endpoints/${endpoint.id}/replays`, { method: 'POST', body: { since, dryRun: true } }),
  });
  const replay = useMutation({
    mutationFn: () => apiFetch<typeof replayExhaustedContract>(`/v1/webhook-endpoints/${endpoint.id}/replays`, { method: 'POST', body: { since, dryRun: false } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: webhookQueryKeys.allDeliveries });
      void queryClient.invalidateQueries({ queryKey: endpointStatsKey(endpoint.id) });
    },
  });
  const matched = count.data?.matched ?? 0;
  return (
    <form
      className="card"
      aria-label={`Replay failed deliveries to ${endpoint.url}`}
      style={{ marginTop: '0.75rem', background: 'var(--bg)' }}
      onSubmit={(e) => {
        e.preventDefault();
        replay.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-since`}>Replay every exhausted or canceled delivery from</label>
        <select id={`${id}-since`} value={window} onChange={(e) => { setWindow(e.target.value as keyof typeof WINDOWS); replay.reset(); }}>
          {Object.entries(WINDOWS).map(([value, [label]]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <p role="status" data-testid="bulk-replay-count">
        {count.isPending
          ? 'Counting…'
          : count.isError
            ? ''
            : replay.isSuccess
              ? `${replay.data.replayed} ${replay.data.replayed === 1 ? 'delivery was' : 'deliveries were'} queued again; each is linked to its original.`
              : matched === 0
                ? `No exhausted or canceled deliveries from ${WINDOWS[window][0]} are waiting for a replay.`
                : `${matched.toLocaleString()} ${matched === 1 ? 'delivery' : 'deliveries'} from ${WINDOWS[window][0]} that did not get through will be sent again${matched > 1000 ? ' (the oldest 1,000 now; replay again for the rest)' : ''}.`}
      </p>
      {count.isError && <ErrorMessage error={count.error} />}
      {replay.isError && <ErrorMessage error={replay.error} />}
      <div className="row">
        {!replay.isSuccess && (
          <button type="submit" className="primary" disabled={matched === 0 || replay.isPending}>
            {replay.isPending ? 'Replaying…' : `Replay ${matched.toLocaleString()}`}
          </button>
        )}
        <button type="button" onClick={onClose}>
          {replay.isSuccess ? 'Done' : 'Cancel'}
        </button>
      </div>
    </form>
  );
}
