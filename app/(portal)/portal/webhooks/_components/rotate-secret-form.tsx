'use client';

import type { rotateEndpointSecretContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { RotationForm } from '../../../_components/rotation-form';
import type { Endpoint, RevealedSigningSecret } from './types';
import styles from './webhooks.module.css';

export function RotateSecretForm({
  endpoint,
  onCancel,
  onRotated,
}: {
  endpoint: Endpoint;
  onCancel: () => void;
  onRotated: (revealed: RevealedSigningSecret) => void;
}) {
  return (
    <RotationForm
      ariaLabel={`Rotate the signing secret of ${endpoint.url}`}
      className={styles.inlineForm}
      intro="A new signing secret is made and shown once. While the old one still signs, deliveries carry a signature for each."
      choiceLabel="Keep the old secret signing for"
      noOverlapLabel="None — the old secret stops signing now"
      submitLabel="Rotate secret"
      rotate={(overlapMinutes) =>
        apiFetch<typeof rotateEndpointSecretContract>(`/v1/webhook-endpoints/${endpoint.id}/secret-rotation`, {
          method: 'POST',
          body: { overlapMinutes },
        })
      }
      onRotated={(rotated) => {
        // Null only on a replay of the same Idempotency-Key, which this call never sends.
        if (rotated.secret !== null) onRotated({ kind: 'rotated', endpoint: rotated.endpoint, secret: rotated.secret });
      }}
      onCancel={onCancel}
    />
  );
}
