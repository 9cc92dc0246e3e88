'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { COMPRESSED_RETRY_DELAYS_MS, RETRY_DELAYS_MS, retryScheduleInWords } from '@/lib/webhooks/retry-schedule';
import type { updateEndpointContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import { webhookQueryKeys, type Endpoint } from './types';
import styles from './webhooks.module.css';

type Mode = 'off' | 'status' | 'timeout';

/** What a Test endpoint's failure setting does, in a sentence: "Answers 503 to the next 3 attempts". */
export function testFailureInWords(failure: Endpoint['testFailure']): string | null {
  if (!failure) return null;
  const which = failure.remaining === null ? 'every attempt, until switched off' : failure.remaining === 1 ? 'the next attempt' : `the next ${failure.remaining} attempts`;
  return failure.mode === 'status' ? `Answers ${failure.status} to ${which}` : `Times out on ${which}`;
}

/**
 * A Test endpoint's failures on demand and compressed retries: each attempt fails as chosen
 * instead of being sent (recorded as a real failure, retried on the schedule), so an integration
 * sees retries, exhaustion and replay before production does.
 */
export function TestFailureForm({ endpoint, onClose }: { endpoint: Endpoint; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const current = endpoint.testFailure;
  const [mode, setMode] = useState<Mode>(current?.mode ?? 'off');
  const [status, setStatus] = useState(String(current?.mode === 'status' ? current.status : 500));
  const [count, setCount] = useState(current?.remaining === null || current === null ? '' : String(current.remaining));
  const [compressed, setCompressed] = useState(endpoint.compressedRetries);
  const save = useMutation({
    mutationFn: () =>
      apiFetch<typeof updateEndpointContract>(`/v1/webhook-endpoints/${endpoint.id}`, {
        method: 'PATCH',
        body: {
          testFailure:
            mode === 'off'
              ? null
              : { mode, ...(mode === 'status' ? { status: Number(status) } : {}), remaining: count.trim() === '' ? null : Number(count) },
          compressedRetries: compressed,
        },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints(endpoint.projectId) });
      onClose();
    },
  });
  return (
    <form
      className={styles.inlineForm}
      aria-label={`Test failures of ${endpoint.url}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <p className="muted" style={{ marginTop: 0 }}>
        Test only. While a failure is set, each attempt fails that way instead of being sent: it is recorded and retried like a real failure.
      </p>
      <div className="field">
        <label htmlFor={`${id}-mode`}>Attempts</label>
        <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
          <option value="off">Are sent as usual</option>
          <option value="status">Fail with a status</option>
          <option value="timeout">Time out (no answer)</option>
        </select>
      </div>
      {mode === 'status' && (
        <div className="field">
          <label htmlFor={`${id}-status`}>Status (300–599)</label>
          <input id={`${id}-status`} type="number" min={300} max={599} required value={status} onChange={(e) => setStatus(e.target.value)} />
        </div>
      )}
      {mode !== 'off' && (
        <div className="field">
          <label htmlFor={`${id}-count`}>For the next … attempts (empty: until you switch it off)</label>
          <input id={`${id}-count`} type="number" min={1} max={1000} value={count} onChange={(e) => setCount(e.target.value)} />
        </div>
      )}
      <div className="field">
        <label>
          <input type="checkbox" checked={compressed} onChange={(e) => setCompressed(e.target.checked)} /> Retry after{' '}
          {retryScheduleInWords(COMPRESSED_RETRY_DELAYS_MS)} instead of {retryScheduleInWords(RETRY_DELAYS_MS)}
        </label>
      </div>
      {save.isError && <ErrorMessage error={save.error} />}
      <div className={styles.actions}>
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
