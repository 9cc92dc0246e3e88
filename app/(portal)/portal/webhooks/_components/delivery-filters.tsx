'use client';

import { useSearchParams } from 'next/navigation';
import { choicesOf, SelectField } from '../../../_components/form-fields';
import { useSetSearchParam } from '../../../_components/url-selection';
import { EVENT_TYPES } from '@/lib/events/event-types';
import { DELIVERY_STATUS, DELIVERY_STATUSES } from './delivery-status';

const FILTER_STATUSES = ['failing', ...DELIVERY_STATUSES] as const;
const STATUS_CHOICES = choicesOf(FILTER_STATUSES, (s) => (s === 'failing' ? 'Failing (retrying or given up)' : DELIVERY_STATUS[s].label));
const EVENT_CHOICES = choicesOf(EVENT_TYPES);

/**
 * The status and event-type filters, kept in the URL (`?status=&eventType=`) so a link can
 * open the list already narrowed. Callers must sit inside a <Suspense> boundary.
 */
export function useDeliveryFilters() {
  const searchParams = useSearchParams();
  const setParam = useSetSearchParam();
  const status = searchParams.get('status');
  const eventType = searchParams.get('eventType');
  return {
    status: FILTER_STATUSES.find((s) => s === status) ?? null,
    eventType: EVENT_TYPES.find((t) => t === eventType) ?? null,
    set(param: 'status' | 'eventType', value: string) {
      setParam(param, value);
    },
  };
}

export function DeliveryFilters({ filters }: { filters: ReturnType<typeof useDeliveryFilters> }) {
  return (
    <>
      <SelectField id="delivery-status" label="Status" value={filters.status ?? ''} onChange={(e) => filters.set('status', e.target.value)} any="Any status" choices={STATUS_CHOICES} />
      <SelectField id="delivery-event-type" label="Event" value={filters.eventType ?? ''} onChange={(e) => filters.set('eventType', e.target.value)} any="Any event" choices={EVENT_CHOICES} />
    </>
  );
}
