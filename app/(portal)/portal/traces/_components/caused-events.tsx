'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { formatTime } from '../../../_components/ui';
import { hiddenHeading, num, TableHead } from '../../../_components/table-head';
import { DeliveryStatusBadge } from '../../webhooks/_components/delivery-status';
import { deliveryHref } from '../../webhooks/_components/links';
import type { QuoteTrace } from './use-quote-trace';

type Delivery = QuoteTrace['events'][number]['deliveries'][number];

/** The domain events the quote caused, each with its webhook deliveries. */
export function CausedEvents({ events }: { events: QuoteTrace['events'] }) {
  if (events.length === 0) return <p className="muted card">This quote has not caused any events.</p>;
  return (
    <>
      {events.map((event) => (
        <article key={event.id} className="card" aria-label={`Event ${event.type}`}>
          <div className="row">
            <strong className="mono">{event.type}</strong>
            <span className="muted">{formatTime(event.createdAt)}</span>
          </div>
          {event.deliveries.length === 0 ? (
            <p className="muted" style={{ marginBottom: 0 }}>
              No webhook deliveries yet. Deliveries appear here once the project has a webhook endpoint for this event.
            </p>
          ) : (
            <DeliveryTable deliveries={event.deliveries} />
          )}
        </article>
      ))}
    </>
  );
}

function DeliveryTable({ deliveries }: { deliveries: Delivery[] }) {
  return (
    <table className="compact cards" aria-label="Webhook deliveries" style={{ marginTop: '0.5rem' }}>
      <TableHead columns={['Endpoint', 'Status', num('Attempts'), 'Next attempt', 'Created', hiddenHeading('Details')]} />
      <tbody>
        {deliveries.map((d) => (
          <tr key={d.id}>
            <td className="mono" data-label="Endpoint" title={`Endpoint ${d.endpointId}`}>
              {d.endpointUrl}
              {d.endpointDeleted && <span className="muted"> (endpoint deleted)</span>}
            </td>
            <td data-label="Status">
              <DeliveryStatusBadge status={d.status} attemptCount={d.attemptCount} nextAttemptAt={d.nextAttemptAt} /> {d.replayOfId && <span className="muted">replay</span>}
            </td>
            <td className="num" data-label="Attempts">{d.attemptCount}</td>
            <td data-label="Next attempt">{d.nextAttemptAt ? formatTime(d.nextAttemptAt) : <span className="muted">none</span>}</td>
            <td data-label="Created">{formatTime(d.createdAt)}</td>
            <td>
              <IntentLink href={deliveryHref(d.id)}>Details</IntentLink>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
