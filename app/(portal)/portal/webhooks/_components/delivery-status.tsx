'use client';

import type { DeliveryStatus } from './types';

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'exhausted', 'canceled'];

export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; tone: string; meaning: string }> = {
  pending: { label: 'Pending', tone: 'warn', meaning: 'Waiting for its first attempt or a retry' },
  succeeded: { label: 'Succeeded', tone: 'ok', meaning: 'Your endpoint answered 2xx' },
  exhausted: { label: 'Exhausted', tone: 'danger', meaning: 'Failed five times; no more automatic attempts. Replay it to try again.' },
  // `neutral` has no rule of its own: the plain grey badge, for an outcome that is nobody's failure.
  canceled: { label: 'Canceled', tone: 'neutral', meaning: 'Its endpoint was disabled or deleted before it was delivered; it is not sent again unless you replay it.' },
};

/**
 * The delivery's state in words. A pending delivery whose attempt failed is shown as retrying,
 * with the next attempt's time (its API status stays `pending`, spec 3.3).
 */
export function DeliveryStatusBadge({ status, attemptCount = 0, nextAttemptAt = null }: { status: DeliveryStatus; attemptCount?: number; nextAttemptAt?: string | null }) {
  if (status === 'pending' && attemptCount > 0) {
    const next = nextAttemptAt ? new Date(nextAttemptAt).toLocaleTimeString(undefined, { timeStyle: 'short' }) : null;
    return (
      <span className="badge warn" title={`Attempt ${attemptCount} failed; ${next ? `the next attempt is at ${next}` : 'it will be tried again'}.`}>
        Retrying{next ? ` at ${next}` : ''}
      </span>
    );
  }
  const { label, tone, meaning } = DELIVERY_STATUS[status];
  return (
    <span className={`badge ${tone}`} title={meaning}>
      {label}
    </span>
  );
}
