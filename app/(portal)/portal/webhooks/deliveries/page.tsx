'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { COMPRESSED_RETRY_DELAYS_MS, MAX_ATTEMPTS, retryScheduleInWords } from '@/lib/webhooks/retry-schedule';
import { ProjectScope, type ProjectInWorkspace } from '../../../_components/project-scope';
import { RequiresAccess } from '../../../_components/requires-access';
import { ENVIRONMENT_LABEL, Empty, ErrorMessage, Loading } from '../../../_components/ui';
import { useUrlSelection } from '../../../_components/url-selection';
import { DeliveryFilters, useDeliveryFilters } from '../_components/delivery-filters';
import { DeliveryTable } from '../_components/delivery-table';
import type { DeliveryFilter, Endpoint } from '../_components/types';
import { refreshInterval } from '../_components/refresh-interval';
import { useDeliveries, useEndpoints } from '../_components/use-webhooks';
import styles from '../_components/webhooks.module.css';
import { AskAnAdmin } from '../../../_components/ask-an-admin';

export default function WebhookDeliveriesPage() {
  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href="/portal/webhooks">← Webhooks</IntentLink>
      </p>
      <h1>Webhook deliveries</h1>
      <p className="muted">
        Each event sent to an endpoint is one delivery. A failed attempt is retried after {retryScheduleInWords()} (a Test endpoint
        with compressed retries: after {retryScheduleInWords(COMPRESSED_RETRY_DELAYS_MS)}); after failure{' '}
        {MAX_ATTEMPTS} the delivery is exhausted and only a replay sends it again. Disabling or deleting an endpoint cancels its pending
        deliveries.
      </p>
      <RequiresAccess page="webhooks" needs="Webhook deliveries are seen by workspace members allowed to manage webhooks.">
        <ProjectScope>{(selected) => <ProjectDeliveries {...selected} />}</ProjectScope>
      </RequiresAccess>
    </>
  );
}

function ProjectDeliveries({ workspace, project }: ProjectInWorkspace) {
  if (!workspace.permissions.includes('webhooks:manage')) {
    return (
      <p className="notice">
        Seeing webhook deliveries is for workspace members allowed to manage webhooks. <AskAnAdmin workspaceId={workspace.id} />
      </p>
    );
  }
  return <ProjectEndpointDeliveries projectId={project.id} />;
}

function ProjectEndpointDeliveries({ projectId }: { projectId: string }) {
  const endpoints = useEndpoints(projectId);
  if (endpoints.isPending) return <Loading what="endpoints" />;
  if (endpoints.isError) return <ErrorMessage error={endpoints.error} />;
  if (endpoints.data.endpoints.length === 0) {
    return (
      <Empty>
        This project has no webhook endpoints, so nothing has been delivered.{' '}
        <IntentLink href={`/portal/webhooks?project=${projectId}`}>Add an endpoint</IntentLink>
      </Empty>
    );
  }
  return <EndpointDeliveries endpoints={endpoints.data.endpoints} />;
}

function EndpointDeliveries({ endpoints }: { endpoints: Endpoint[] }) {
  const selection = useUrlSelection(
    'endpoint',
    endpoints.map((e) => e.id),
  );
  const filters = useDeliveryFilters();
  const endpoint = endpoints.find((e) => e.id === selection.selectedId)!;
  return (
    <>
      <div className={styles.filters}>
        <div className="field">
          <label htmlFor="endpoint-picker">Endpoint</label>
          <select id="endpoint-picker" value={endpoint.id} onChange={(e) => selection.select(e.target.value)}>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {endpointLabel(e)}
              </option>
            ))}
          </select>
        </div>
        <DeliveryFilters filters={filters} />
      </div>
      {selection.requestedUnknown && (
        <p className="notice">The endpoint in the link is not one of this project’s, so {endpoint.url} is shown instead.</p>
      )}
      {endpoint.status === 'disabled' && (
        <p className="notice">This endpoint is disabled: nothing is sent to it. Its deliveries that were pending were canceled; once you enable it, “Replay failed…” sends them again.</p>
      )}
      <DeliveryList
        key={endpoint.id}
        filter={{ endpointId: endpoint.id, status: filters.status, eventType: filters.eventType }}
        endpointEnabled={endpoint.status === 'enabled'}
      />
    </>
  );
}

function DeliveryList({ filter, endpointEnabled }: { filter: DeliveryFilter; endpointEnabled: boolean }) {
  const deliveries = useDeliveries(filter, endpointEnabled);
  if (deliveries.isPending) return <Loading what="deliveries" />;
  if (deliveries.isError && !deliveries.data) return <ErrorMessage error={deliveries.error} />;
  const shown = deliveries.data.pages.flatMap((page) => page.deliveries);
  const filtered = filter.status !== null || filter.eventType !== null;
  return (
    <section aria-label="Deliveries of the endpoint">
      {deliveries.isError && <ErrorMessage error={deliveries.error} />}
      {shown.length === 0 ? (
        <Empty>
          {filtered
            ? 'No deliveries of this endpoint match these filters.'
            : 'Nothing has been sent to this endpoint yet. Send a test event from the Webhooks page to see a delivery here.'}
        </Empty>
      ) : (
        <>
          {endpointEnabled && refreshInterval(shown) && (
            <p className="hint">
              This list updates by itself while a delivery is pending.
            </p>
          )}
          <DeliveryTable deliveries={shown} />
          {deliveries.hasNextPage && (
            <p>
              <button type="button" disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
                {deliveries.isFetchingNextPage ? 'Loading older deliveries…' : 'Show older deliveries'}
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}

function endpointLabel(endpoint: Endpoint): string {
  const environment = ENVIRONMENT_LABEL[endpoint.environment];
  return `${endpoint.url} (${environment}${endpoint.status === 'disabled' ? ', disabled' : ''})`;
}
