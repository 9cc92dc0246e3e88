'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { Fragment, useState } from 'react';
import { hiddenHeading, num, TableHead } from '../../../_components/table-head';
import { formatTime } from '../../../_components/ui';
import { AttemptHistory } from './attempt-history';
import { DeliveryStatusBadge } from './delivery-status';
import { deliveryHref } from './links';
import { ReplayButton } from './replay-button';
import type { Delivery } from './types';
import styles from './webhooks.module.css';

const COLUMNS = ['Event', 'Status', num('Attempts'), 'Next attempt', 'Created', hiddenHeading('Details')];

const shortId = (id: string) => id.slice(0, 8);

/** When the next attempt is due; "due now" once that moment has passed. */
export function NextAttempt({ at }: { at: string | null }) {
  if (!at) return <span className="muted">—</span>;
  return Date.parse(at) <= Date.now() ? <>due now</> : <>{formatTime(at)}</>;
}

/** Deliveries, newest first; each row opens to its attempt history and a Replay button. */
export function DeliveryTable({ deliveries }: { deliveries: Delivery[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="table-scroll">
      <table className="compact cards" aria-label="Deliveries">
        <TableHead columns={COLUMNS} />
        <tbody>
          {deliveries.map((delivery) => {
            const expanded = open.has(delivery.id);
            const detailsId = `delivery-details-${delivery.id}`;
            return (
              <Fragment key={delivery.id}>
                <tr aria-label={`Delivery ${shortId(delivery.id)} of ${delivery.eventType}`}>
                  <td data-label="Event">
                    <IntentLink href={deliveryHref(delivery.id)} className="mono">
                      {delivery.eventType}
                    </IntentLink>
                    {delivery.replayOfId && (
                      <div className="hint">
                        replay of <IntentLink href={deliveryHref(delivery.replayOfId)}>delivery {shortId(delivery.replayOfId)}</IntentLink>
                      </div>
                    )}
                  </td>
                  <td data-label="Status">
                    <DeliveryStatusBadge status={delivery.status} attemptCount={delivery.attemptCount} nextAttemptAt={delivery.nextAttemptAt} />
                  </td>
                  <td className="num" data-label="Attempts">{delivery.attemptCount}</td>
                  <td className={styles.nowrap} data-label="Next attempt">
                    <NextAttempt at={delivery.nextAttemptAt} />
                  </td>
                  <td className={styles.nowrap} data-label="Created">{formatTime(delivery.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className={styles.expander}
                      aria-expanded={expanded}
                      aria-controls={expanded ? detailsId : undefined}
                      onClick={() => toggle(delivery.id)}
                    >
                      {expanded ? 'Hide attempts' : 'Show attempts'}
                    </button>
                  </td>
                </tr>
                {expanded && (
                  <tr id={detailsId} className={styles.detailsRow}>
                    <td colSpan={COLUMNS.length}>
                      <AttemptHistory attempts={delivery.attempts} label={`Attempts of delivery ${shortId(delivery.id)}`} />
                      <div style={{ marginTop: '0.75rem' }}>
                        <ReplayButton delivery={delivery} />
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
