'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { revokeApiKeyContract, rotateApiKeyContract } from '@/app/v1/api-keys/contract';
import { SCOPES } from '@/lib/auth/scopes';
import { apiFetch } from '../../../_components/api';
import { ConfirmButton } from '../../../_components/confirm-button';
import { RotationForm, useRotationToggle } from '../../../_components/rotation-form';
import { ErrorMessage, formatTime } from '../../../_components/ui';
import styles from './api-keys.module.css';
import { apiKeysQueryKey, type ApiKey, type RevealedSecret } from './types';

const STATUS_BADGE: Record<ApiKey['status'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'badge ok' },
  rotating: { label: 'Rotating', className: 'badge test' },
  revoked: { label: 'Revoked', className: 'badge danger' },
};


export const KEY_TABLE_COLUMNS = ['Name', 'Key', 'Status', 'Scopes', 'Created', 'Last used'];

export function KeyRow({
  apiKey,
  replaces,
  replacedBy,
  projectId,
  mayManage,
  onRotated,
}: {
  apiKey: ApiKey;
  /** The key this one replaced by rotation, and the one that replaced it (when listed). */
  replaces: ApiKey | null;
  replacedBy: ApiKey | null;
  projectId: string;
  mayManage: boolean;
  onRotated: (revealed: RevealedSecret) => void;
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(projectId) });
  const rotation = useRotationToggle(refresh, onRotated);
  const revoke = useMutation({
    mutationFn: () => apiFetch<typeof revokeApiKeyContract>(`/v1/api-keys/${apiKey.id}/revocation`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const status = STATUS_BADGE[apiKey.status];
  const live = apiKey.status !== 'revoked';
  const columns = KEY_TABLE_COLUMNS.length + (mayManage ? 1 : 0);

  return (
    <>
      <tr aria-label={`${apiKey.name} ${apiKey.displayPrefix}…${apiKey.last4}`} className={live ? undefined : styles.revokedRow}>
        <td data-label="Name">
          <span className={styles.keyName}>{apiKey.name}</span>
          {replacedBy && <div className={styles.lineage}>Replaced by {keyLabel(replacedBy)}</div>}
          {replaces && <div className={styles.lineage}>Replaces {keyLabel(replaces)}</div>}
        </td>
        <td data-label="Key">
          <code className={styles.maskedKey}>
            {apiKey.displayPrefix}…{apiKey.last4}
          </code>
        </td>
        <td data-label="Status">
          <span className={status.className}>{status.label}</span>
          {apiKey.revokedAt && (
            <div className={styles.lineage}>
              {apiKey.status === 'revoked' ? 'since' : 'stops'} <When iso={apiKey.revokedAt} inline />
            </div>
          )}
        </td>
        <td data-label="Scopes">
          <KeyScopes scopes={apiKey.scopes} />
        </td>
        <td data-label="Created">
          <When iso={apiKey.createdAt} />
        </td>
        <td data-label="Last used">{apiKey.lastUsedAt ? <When iso={apiKey.lastUsedAt} /> : <span className="muted">Never</span>}</td>
        {mayManage && (
          <td>
            {live && (
              <div className="row" style={{ flexWrap: 'nowrap' }}>
                {apiKey.status === 'active' && (
                  <button
                    type="button"
                    aria-expanded={rotation.open}
                    aria-label={`Rotate ${apiKey.name} (${apiKey.displayPrefix}…${apiKey.last4})`}
                    onClick={rotation.toggle}
                  >
                    Rotate…
                  </button>
                )}
                <ConfirmButton
                  label="Revoke"
                  accessibleLabel={`Revoke ${apiKey.name} (${apiKey.displayPrefix}…${apiKey.last4})`}
                  question={`Revoke “${apiKey.name}” (${apiKey.displayPrefix}…${apiKey.last4}) now? Requests with it fail at once.`}
                  confirmLabel="Yes, revoke"
                  pending={revoke.isPending}
                  onConfirm={() => revoke.mutate()}
                />
              </div>
            )}
          </td>
        )}
      </tr>
      {rotation.open && (
        <tr>
          <td colSpan={columns}>
            <RotateForm apiKey={apiKey} onCancel={rotation.close} onRotated={rotation.rotated} />
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

/** Date over time, so the time columns stay narrow beside the key's actions. */
function When({ iso, inline = false }: { iso: string; inline?: boolean }) {
  const at = new Date(iso);
  return (
    <time dateTime={iso} title={formatTime(iso)} className={inline ? undefined : styles.when}>
      {at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}
      {inline ? ' ' : ''}
      <span className="muted">{at.toLocaleTimeString(undefined, { timeStyle: 'short' })}</span>
    </time>
  );
}

const keyLabel = (k: ApiKey) => `${k.name} (…${k.last4})`;

function RotateForm({ apiKey, onCancel, onRotated }: { apiKey: ApiKey; onCancel: () => void; onRotated: (revealed: RevealedSecret) => void }) {
  return (
    <RotationForm
      ariaLabel={`Rotate ${apiKey.name}`}
      className={styles.rotateForm}
      intro="Rotating mints a new key with the same name, environment and scopes. Its secret is shown once."
      choiceLabel="Keep the old key working for"
      noOverlapLabel="None — the old key stops working now"
      submitLabel="Rotate key"
      rotate={(graceMinutes) =>
        apiFetch<typeof rotateApiKeyContract>(`/v1/api-keys/${apiKey.id}/rotation`, {
          method: 'POST',
          body: { graceMinutes },
        })
      }
      onRotated={(rotated) => {
        // Null only on a replay of the same Idempotency-Key, which this call never sends.
        if (rotated.secret !== null) onRotated({ kind: 'rotated', apiKey: rotated.successor, predecessor: rotated.apiKey, secret: rotated.secret });
      }}
      onCancel={onCancel}
    />
  );
}

/** What the key may do on the account surface: "All" for every scope, else each one. */
function KeyScopes({ scopes }: { scopes: string[] }) {
  if (SCOPES.every((scope) => scopes.includes(scope))) return <span>All</span>;
  if (scopes.length === 0) return <span className="muted">None</span>;
  return (
    <span>
      {scopes.map((scope, i) => (
        <span key={scope}>
          {i > 0 && ', '}
          <code>{scope}</code>
        </span>
      ))}
    </span>
  );
}
