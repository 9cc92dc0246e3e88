'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IntentLink } from '../../../../_components/intent-link';
import { useRef, useState } from 'react';
import type { deleteEndpointContract, sendTestEventContract, updateEndpointContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { ConfirmButton } from '../../../_components/confirm-button';
import { useRotationToggle } from '../../../_components/rotation-form';
import { EnvironmentBadge, ErrorMessage, formatTime } from '../../../_components/ui';
import { BulkReplayForm } from './bulk-replay-form';
import { EndpointForm } from './endpoint-form';
import { EndpointHealth } from './endpoint-health';
import { deliveriesHref } from './links';
import { RotateSecretForm } from './rotate-secret-form';
import { TestFailureForm, testFailureInWords } from './test-failure-form';
import { webhookQueryKeys, type Delivery, type Endpoint, type RevealedSigningSecret } from './types';
import styles from './webhooks.module.css';

/** One endpoint: what it receives and how it signs, and everything that can be done to it. */
export function EndpointCard({ endpoint, onRotated }: { endpoint: Endpoint; onRotated: (revealed: RevealedSigningSecret) => void }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [testingFailures, setTestingFailures] = useState(false);
  const failureInWords = testFailureInWords(endpoint.testFailure);
  const editButton = useRef<HTMLButtonElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints(endpoint.projectId) });
  const rotation = useRotationToggle(refresh, onRotated);
  const closeEditor = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const enabled = endpoint.status === 'enabled';

  const setStatus = useMutation({
    mutationFn: (status: Endpoint['status']) =>
      apiFetch<typeof updateEndpointContract>(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'PATCH', body: { status } }),
    onSuccess: refresh,
  });
  const sendTest = useMutation({
    mutationFn: () => apiFetch<typeof sendTestEventContract>(`/v1/webhook-endpoints/${endpoint.id}/test-events`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.allDeliveries }),
  });
  const remove = useMutation({
    mutationFn: () => apiFetch<typeof deleteEndpointContract>(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const failed = [setStatus, sendTest, remove].find((m) => m.isError);
  // A "test event queued" note from before would read as if the disabled endpoint got it.
  const toggleStatus = () => setStatus.mutate(enabled ? 'disabled' : 'enabled', { onSuccess: () => sendTest.reset() });

  return (
    <article className={`card ${enabled ? '' : styles.disabledCard}`} aria-label={`Endpoint ${endpoint.url}`}>
      <div className={styles.endpointHeader}>
        <span className={`mono ${styles.endpointUrl}`}>{endpoint.url}</span>
        <EnvironmentBadge environment={endpoint.environment} />
        <span className={enabled ? 'badge ok' : 'badge'}>{enabled ? 'Enabled' : 'Disabled'}</span>
      </div>
      {endpoint.description && <p style={{ margin: '0.25rem 0 0' }}>{endpoint.description}</p>}
      {!enabled && <p className="muted" style={{ margin: '0.25rem 0 0' }}>Disabled: it receives nothing until you enable it again.</p>}
      {endpoint.targetNote && <p className="muted target-note">{endpoint.targetNote}</p>}

      <dl className="facts" style={{ marginTop: '0.75rem' }}>
        <dt>Events</dt>
        <dd>
          {endpoint.eventTypes.length === 0 ? (
            'All events'
          ) : (
            <ul className={styles.eventList}>
              {endpoint.eventTypes.map((type) => (
                <li key={type}>
                  <code>{type}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Signing secret</dt>
        <dd>
          <code>
            {endpoint.secretPrefix}…{endpoint.secretLast4}
          </code>
          {endpoint.previousSecretExpiresAt && (
            <span className="muted"> · the old secret also signs until {formatTime(endpoint.previousSecretExpiresAt)}</span>
          )}
        </dd>
        {endpoint.environment === 'test' && (failureInWords || endpoint.compressedRetries) && (
          <>
            <dt>Test failures</dt>
            <dd data-testid="test-failure-setting">
              {failureInWords && <span className="badge danger">{failureInWords}</span>}
              {endpoint.compressedRetries && <span className="badge"> Compressed retries (seconds)</span>}
            </dd>
          </>
        )}
        <dt>Added</dt>
        <dd>{formatTime(endpoint.createdAt)}</dd>
        <dt>Health</dt>
        <dd>
          <EndpointHealth endpoint={endpoint} />
        </dd>
      </dl>

      <div className={styles.actions}>
        <IntentLink href={deliveriesHref(endpoint)} className="button" aria-label={`Deliveries of ${endpoint.url}`}>
          Deliveries
        </IntentLink>
        {enabled && (
          <button type="button" disabled={sendTest.isPending} onClick={() => sendTest.mutate()}>
            {sendTest.isPending ? 'Sending test event…' : 'Send test event'}
          </button>
        )}
        <button type="button" ref={editButton} aria-expanded={editing} onClick={() => setEditing((open) => !open)}>
          Edit…
        </button>
        <button type="button" aria-expanded={rotation.open} onClick={rotation.toggle}>
          Rotate secret…
        </button>
        <button type="button" aria-expanded={replaying} onClick={() => setReplaying((open) => !open)}>
          Replay failed…
        </button>
        {endpoint.environment === 'test' && (
          <button type="button" aria-expanded={testingFailures} onClick={() => setTestingFailures((open) => !open)}>
            Test failures…
          </button>
        )}
        {enabled ? (
          <ConfirmButton
            label="Disable"
            accessibleLabel={`Disable ${endpoint.url}`}
            question="Disable this endpoint? It receives nothing until you enable it again, and its pending deliveries are canceled (you can replay them once it is enabled)."
            confirmLabel="Yes, disable"
            pending={setStatus.isPending}
            onConfirm={toggleStatus}
          />
        ) : (
          <button type="button" disabled={setStatus.isPending} onClick={toggleStatus}>
            Enable
          </button>
        )}
        <span className={styles.push}>
          <ConfirmButton
            label="Delete"
            accessibleLabel={`Delete ${endpoint.url}`}
            question="Delete this endpoint? It receives nothing more; its delivery history is kept."
            confirmLabel="Yes, delete"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </span>
      </div>

      {sendTest.isSuccess && (
        <p className={`success ${styles.inlineMessage}`} role="status">
          Test event queued.{' '}
          <IntentLink href={deliveriesHref(endpoint, 'webhook.test')}>Watch its delivery</IntentLink>
        </p>
      )}
      {failed && (
        <div className={styles.inlineMessage}>
          <ErrorMessage error={failed.error} />
        </div>
      )}
      {editing && (
        <EndpointForm projectId={endpoint.projectId} endpoint={endpoint} onCancel={closeEditor} onSaved={closeEditor} />
      )}
      {replaying && <BulkReplayForm endpoint={endpoint} onClose={() => setReplaying(false)} />}
      {testingFailures && <TestFailureForm endpoint={endpoint} onClose={() => setTestingFailures(false)} />}
      {rotation.open && <RotateSecretForm endpoint={endpoint} onCancel={rotation.close} onRotated={rotation.rotated} />}
    </article>
  );
}
