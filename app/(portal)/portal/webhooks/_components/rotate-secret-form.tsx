'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import type { Endpoint, RevealedSigningSecret } from './types';
import styles from './webhooks.module.css';

const OVERLAP_CHOICES = [
  { minutes: 0, label: 'None — the old secret stops signing now' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
  { minutes: 7 * 24 * 60, label: '7 days' },
];
// The API's default too (lib/webhooks/schemas.ts, which a client bundle cannot import: it resolves DNS).
const DEFAULT_OVERLAP_MINUTES = 24 * 60;

export function RotateSecretForm({
  endpoint,
  onCancel,
  onRotated,
}: {
  endpoint: Endpoint;
  onCancel: () => void;
  onRotated: (revealed: RevealedSigningSecret) => void;
}) {
  const [overlapMinutes, setOverlapMinutes] = useState(DEFAULT_OVERLAP_MINUTES);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => selectRef.current?.focus(), []);
  const rotate = useMutation({
    mutationFn: () =>
      apiFetch<{ endpoint: Endpoint; secret: string }>(`/v1/webhook-endpoints/${endpoint.id}/secret-rotation`, {
        method: 'POST',
        body: { overlapMinutes },
      }),
    // The answer holds the new secret: drop it from the mutation cache once unwatched.
    gcTime: 0,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const rotated = await rotate.mutateAsync().catch(() => null);
    if (!rotated) return;
    rotate.reset();
    onRotated({ kind: 'rotated', endpoint: rotated.endpoint, secret: rotated.secret });
  };
  const selectId = `overlap-${endpoint.id}`;

  return (
    <form onSubmit={submit} className={styles.inlineForm} aria-label={`Rotate the signing secret of ${endpoint.url}`}>
      <p style={{ marginTop: 0 }}>
        A new signing secret is made and shown once. While the old one still signs, deliveries carry a signature for each.
      </p>
      <div className="field">
        <label htmlFor={selectId}>Keep the old secret signing for</label>
        <select ref={selectRef} id={selectId} value={overlapMinutes} onChange={(e) => setOverlapMinutes(Number(e.target.value))}>
          {OVERLAP_CHOICES.map((choice) => (
            <option key={choice.minutes} value={choice.minutes}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {rotate.isError && <ErrorMessage error={rotate.error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={rotate.isPending}>
          {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
