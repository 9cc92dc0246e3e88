'use client';

import type { DeliveryStatus } from './types';

export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'exhausted', 'canceled'];

export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; tone: string; meaning: string }> = {
  pending: { label: 'Pending', tone: 'warn', meaning: 'Waiting for its first attempt or a retry' },
  succeeded: { label: 'Succeeded', tone: 'ok', meaning: 'Your endpoint answered 2xx' },
  exhausted: { label: 'Exhausted', tone: 'danger', meaning: 'Failed five times; no more automatic attempts. Replay it to try again.' },
  // `neutral` has no rule of its own: the plain grey badge, for an outcome that is nobody's failure.
  canceled: { label: 'Canceled', tone: 'neutral', meaning: 'Its endpoint was deleted before it was sent; it will not be sent or replayed.' },
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, tone, meaning } = DELIVERY_STATUS[status];
  return (
    <span className={`badge ${tone}`} title={meaning}>
      {label}
    </span>
  );
}
