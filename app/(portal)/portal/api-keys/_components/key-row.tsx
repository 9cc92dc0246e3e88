'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../_components/api';
import { ConfirmButton } from '../../../_components/confirm-button';
import { EnvironmentBadge, ErrorMessage, formatTime } from '../../../_components/ui';
import styles from './api-keys.module.css';
import { apiKeysQueryKey, type ApiKey, type RevealedSecret } from './types';

const STATUS_BADGE: Record<ApiKey['status'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'badge ok' },
  rotating: { label: 'Rotating', className: 'badge test' },
  revoked: { label: 'Revoked', className: 'badge danger' },
};

const GRACE_CHOICES = [
  { minutes: 0, label: 'None — the old key stops working now' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
  { minutes: 7 * 24 * 60, label: '7 days' },
];
const DEFAULT_GRACE_MINUTES = 24 * 60;

export const KEY_TABLE_COLUMNS = ['Name', 'Key', 'Status', 'Created', 'Last used', 'Revokes at'];

export function KeyRow({
  apiKey,
  projectId,
  mayManage,
  onRotated,
}: {
  apiKey: ApiKey;
  projectId: string;
  mayManage: boolean;
  onRotated: (revealed: RevealedSecret) => void;
}) {
  const queryClient = useQueryClient();
  const [rotating, setRotating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(projectId) });
  const revoke = useMutation({
    mutationFn: () => apiFetch<{ apiKey: ApiKey }>(`/v1/api-keys/${apiKey.id}/revocation`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const status = STATUS_BADGE[apiKey.status];
  const live = apiKey.status !== 'revoked';
  const columns = KEY_TABLE_COLUMNS.length + (mayManage ? 1 : 0);

  return (
    <>
      <tr aria-label={`${apiKey.name} ${apiKey.displayPrefix}…${apiKey.last4}`} className={live ? undefined : styles.revokedRow}>
        <td>
          {apiKey.name} <EnvironmentBadge environment={apiKey.environment} />
        </td>
        <td>
          <code className={styles.maskedKey}>
            {apiKey.displayPrefix}…{apiKey.last4}
          </code>
        </td>
        <td>
          <span className={status.className}>{status.label}</span>
        </td>
        <td>
          <When iso={apiKey.createdAt} />
        </td>
        <td>{apiKey.lastUsedAt ? <When iso={apiKey.lastUsedAt} /> : <span className="muted">Never</span>}</td>
        <td>{apiKey.revokedAt ? <When iso={apiKey.revokedAt} /> : <span className="muted">—</span>}</td>
        {mayManage && (
          <td>
            {live && (
              <div className="row" style={{ flexWrap: 'nowrap' }}>
                {apiKey.status === 'active' && (
                  <button
                    type="button"
                    aria-expanded={rotating}
                    aria-label={`Rotate ${apiKey.name} (${apiKey.displayPrefix}…${apiKey.last4})`}
                    onClick={() => setRotating((open) => !open)}
                  >
                    Rotate…
                  </button>
                )}
                <ConfirmButton
                  label="Revoke"
                  accessibleLabel={`Revoke ${apiKey.name} (${apiKey.displayPrefix}…${apiKey.last4})`}
                  question="Revoke now? Requests with it fail at once."
                  confirmLabel="Yes, revoke"
                  pending={revoke.isPending}
                  onConfirm={() => revoke.mutate()}
                />
              </div>
            )}
          </td>
        )}
      </tr>
      {rotating && (
        <tr>
          <td colSpan={columns}>
            <RotateForm
              apiKey={apiKey}
              onCancel={() => setRotating(false)}
              onRotated={(revealed) => {
                setRotating(false);
                void refresh();
                onRotated(revealed);
              }}
            />
          </td>
        </tr>
      )}
      {revoke.isError && (
        <tr>
          <td colSpan={columns}>
            <ErrorMessage error={revoke.error} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Date over time, so three time columns fit beside the key's actions. */
function When({ iso }: { iso: string }) {
  const at = new Date(iso);
  return (
    <time dateTime={iso} title={formatTime(iso)} className={styles.when}>
      {at.toLocaleDateString(undefined, { dateStyle: 'medium' })}
      <span className="muted">{at.toLocaleTimeString(undefined, { timeStyle: 'short' })}</span>
    </time>
  );
}

function RotateForm({ apiKey, onCancel, onRotated }: { apiKey: ApiKey; onCancel: () => void; onRotated: (revealed: RevealedSecret) => void }) {
  const [graceMinutes, setGraceMinutes] = useState(DEFAULT_GRACE_MINUTES);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => selectRef.current?.focus(), []);
  const rotate = useMutation({
    mutationFn: () =>
      apiFetch<{ apiKey: ApiKey; successor: ApiKey; secret: string }>(`/v1/api-keys/${apiKey.id}/rotation`, {
        method: 'POST',
        body: { graceMinutes },
      }),
    // The answer holds the successor's secret: drop it from the mutation cache once unwatched.
    gcTime: 0,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const rotated = await rotate.mutateAsync().catch(() => null);
    if (!rotated) return;
    rotate.reset();
    onRotated({ kind: 'rotated', apiKey: rotated.successor, predecessor: rotated.apiKey, secret: rotated.secret });
  };
  const selectId = `grace-${apiKey.id}`;

  return (
    <form onSubmit={submit} className={styles.rotateForm} aria-label={`Rotate ${apiKey.name}`}>
      <p style={{ marginTop: 0 }}>
        Rotating mints a new key with the same name, environment and scopes. Its secret is shown once.
      </p>
      <div className="field">
        <label htmlFor={selectId}>Keep the old key working for</label>
        <select ref={selectRef} id={selectId} value={graceMinutes} onChange={(e) => setGraceMinutes(Number(e.target.value))}>
          {GRACE_CHOICES.map((choice) => (
            <option key={choice.minutes} value={choice.minutes}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {rotate.isError && <ErrorMessage error={rotate.error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={rotate.isPending}>
          {rotate.isPending ? 'Rotating…' : 'Rotate key'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
