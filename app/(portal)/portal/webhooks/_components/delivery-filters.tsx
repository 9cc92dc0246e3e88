'use client';

import { useSearchParams } from 'next/navigation';
import { useSetSearchParam } from '../../../_components/url-selection';
import { EVENT_TYPES } from '@/lib/events/catalogue';
import { DELIVERY_STATUS, DELIVERY_STATUSES } from './delivery-status';


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
    status: DELIVERY_STATUSES.find((s) => s === status) ?? null,
    eventType: EVENT_TYPES.find((t) => t === eventType) ?? null,
    set(param: 'status' | 'eventType', value: string) {
      setParam(param, value);
    },
  };
}

export function DeliveryFilters({ filters }: { filters: ReturnType<typeof useDeliveryFilters> }) {
  return (
    <>
      <div className="field">
        <label htmlFor="delivery-status">Status</label>
        <select id="delivery-status" value={filters.status ?? ''} onChange={(e) => filters.set('status', e.target.value)}>
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {DELIVERY_STATUS[s].label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="delivery-event-type">Event</label>
        <select id="delivery-event-type" value={filters.eventType ?? ''} onChange={(e) => filters.set('eventType', e.target.value)}>
          <option value="">Any event</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
