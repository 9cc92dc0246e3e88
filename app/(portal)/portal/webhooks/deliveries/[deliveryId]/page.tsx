'use client';

import { IntentLink } from '../../../../../_components/intent-link';
import { useParams } from 'next/navigation';
import { isNotFound } from '../../../../_components/api';
import { ErrorMessage, formatTime, Loading } from '../../../../_components/ui';
import { AttemptHistory } from '../../_components/attempt-history';
import { DeliveryStatusBadge } from '../../_components/delivery-status';
import { NextAttempt } from '../../_components/delivery-table';
import { deliveriesHref, deliveryHref } from '../../_components/links';
import { ReplayButton } from '../../_components/replay-button';
import type { Delivery } from '../../_components/types';
import { useDelivery, useEndpoint } from '../../_components/use-webhooks';

export default function WebhookDeliveryPage() {
  const { deliveryId } = useParams<{ deliveryId: string }>();
  const delivery = useDelivery(deliveryId);
  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/webhooks/deliveries">← Webhook deliveries</IntentLink>
      </p>
      {delivery.isPending ? (
        <Loading what="the delivery" />
      ) : delivery.isError && !delivery.data ? (
        <>
          <h1>Webhook delivery</h1>
          {isNotFound(delivery.error) ? (
            <p className="warning" role="alert">
              No delivery <span className="mono">{deliveryId}</span> of a workspace where you manage webhooks.
            </p>
          ) : (
            <ErrorMessage error={delivery.error} />
          )}
        </>
      ) : (
        <DeliveryView key={delivery.data.delivery.id} delivery={delivery.data.delivery} />
      )}
    </>
  );
}

function DeliveryView({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <header style={{ marginBottom: '1rem' }}>
        <h1 style={{ marginBottom: '0.4rem' }}>
          Delivery of <span className="mono">{delivery.eventType}</span>
        </h1>
        <div className="row">
          <DeliveryStatusBadge status={delivery.status} attemptCount={delivery.attemptCount} nextAttemptAt={delivery.nextAttemptAt} />
          {delivery.status === 'pending' && <span className="muted">This page updates by itself while the delivery is pending.</span>}
        </div>
      </header>
      <section className="card" aria-labelledby="delivery-facts-heading">
        <h2 id="delivery-facts-heading">Delivery</h2>
        <dl className="facts">
          <dt>Endpoint</dt>
          <dd>
            <EndpointName endpointId={delivery.endpointId} />
          </dd>
          {delivery.replayOfId && (
            <>
              <dt>Replay of</dt>
              <dd>
                <IntentLink href={deliveryHref(delivery.replayOfId)} className="mono">
                  {delivery.replayOfId}
                </IntentLink>
              </dd>
            </>
          )}
          <dt>Attempts</dt>
          <dd>{delivery.attemptCount}</dd>
          <dt>Next attempt</dt>
          <dd>
            <NextAttempt at={delivery.nextAttemptAt} />
          </dd>
          {delivery.canceledAt && (
            <>
              <dt>Canceled</dt>
              <dd>{formatTime(delivery.canceledAt)}, when its endpoint was disabled or deleted</dd>
            </>
          )}
          <dt>Created</dt>
          <dd>{formatTime(delivery.createdAt)}</dd>
          <dt>Delivery id</dt>
          <dd className="mono">{delivery.id}</dd>
          <dt>Event id</dt>
          <dd className="mono">{delivery.eventId}</dd>
        </dl>
      </section>
      <section aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Attempts</h2>
        <AttemptHistory attempts={delivery.attempts} label="Attempts" />
        <div style={{ marginTop: '1rem' }}>
          <ReplayButton delivery={delivery} />
        </div>
      </section>
    </>
  );
}

/** The endpoint's URL, linking to its deliveries; a deleted endpoint is only its id. */
function EndpointName({ endpointId }: { endpointId: string }) {
  const endpoint = useEndpoint(endpointId);
  if (!endpoint.data) {
    const deleted = isNotFound(endpoint.error);
    return <span className="mono">{deleted ? `${endpointId} (deleted)` : endpointId}</span>;
  }
  return (
    <>
      <IntentLink href={deliveriesHref(endpoint.data.endpoint)} className="mono">
        {endpoint.data.endpoint.url}
      </IntentLink>
      {endpoint.data.endpoint.status === 'disabled' && <span className="muted"> (disabled: it receives nothing until it is enabled)</span>}
    </>
  );
}
