'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IntentLink } from '../../../../_components/intent-link';
import type { replayDeliveryContract } from '@/app/v1/webhook-endpoints/contract';
import { apiFetch } from '../../../_components/api';
import { ErrorMessage } from '../../../_components/ui';
import { deliveryHref } from './links';
import { webhookQueryKeys, type Delivery } from './types';
import styles from './webhooks.module.css';

/**
 * Sends the same event again as a new delivery; the original and its attempts stay as they are.
 * Not while the original is still being delivered: its own retries would send the event twice.
 */
export function ReplayButton({ delivery }: { delivery: Delivery }) {
  if (delivery.status === 'pending') {
    return (
      <p className="hint" style={{ margin: 0 }} data-testid="replay-later">
        {delivery.attemptCount === 0 ? 'Not sent yet.' : 'Still retrying on its own schedule.'} Replay is offered once this delivery arrives or gives up, so the event is not sent twice.
      </p>
    );
  }
  return <ReplayAction delivery={delivery} />;
}

function ReplayAction({ delivery }: { delivery: Delivery }) {
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => apiFetch<typeof replayDeliveryContract>(`/v1/webhook-deliveries/${delivery.id}/replay`, { method: 'POST' }),
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
          Replay queued as a new delivery. <IntentLink href={deliveryHref(replay.data.delivery.id)}>Open the replay</IntentLink>
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
