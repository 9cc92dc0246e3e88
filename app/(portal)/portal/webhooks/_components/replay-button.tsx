'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import { deliveryHref } from './links';
import { webhookQueryKeys, type Delivery } from './types';
import styles from './webhooks.module.css';

/** Sends the same event again as a new delivery; the original and its attempts stay as they are. */
export function ReplayButton({ delivery }: { delivery: Delivery }) {
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => apiFetch<{ delivery: Delivery }>(`/v1/webhook-deliveries/${delivery.id}/replay`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookQueryKeys.allDeliveries }),
  });
  return (
    <div>
      <button type="button" disabled={replay.isPending} onClick={() => replay.mutate()}>
        {replay.isPending ? 'Replaying…' : 'Replay'}
      </button>{' '}
      <span className="hint" style={{ display: 'inline' }}>
        Sends the same event again as a new delivery.
      </span>
      {replay.isSuccess && (
        <p className={`success ${styles.inlineMessage}`} role="status">
          Replay queued as a new delivery. <Link href={deliveryHref(replay.data.delivery.id)}>Open the replay</Link>
        </p>
      )}
      {replay.isError && (
        <div className={styles.inlineMessage}>
          <ErrorMessage error={replay.error} />
        </div>
      )}
    </div>
  );
}
