'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { IntentLink } from '../../../_components/intent-link';
import { useId, useRef, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import type { AnswerOf } from '@/lib/http/contract';
import type { eraseLeadContract, listLeadsContract, moveLeadContract } from '@/app/v1/businesses/contract';
import { LEAD_STATUSES, PIPELINE_STATUSES, type PipelineStatus } from '@/lib/leads/statuses';
import { apiFetch, friendlyError } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import { ConfirmButton } from '../../_components/confirm-button';
import { mayEraseLeads, mayWorkLeads } from '../../_components/portal-access';
import { useWorkspaces, type Business } from '../../_components/queries';
import { RequiresAccess } from '../../_components/requires-access';
import { Empty, ErrorMessage, formatTime, Loading } from '../../_components/ui';

type Lead = AnswerOf<typeof listLeadsContract>['leads'][number];
type LeadStatus = Lead['status'];

export const LEAD_STATUS: Record<LeadStatus, { label: string; tone: string }> = {
  new: { label: 'New', tone: 'warn' },
  contacted: { label: 'Contacted', tone: '' },
  won: { label: 'Won', tone: 'ok' },
  lost: { label: 'Lost', tone: 'danger' },
  erased: { label: 'Erased', tone: '' },
};

export default function LeadsPage() {
  return (
    <>
      <h1>Leads</h1>
      <p className="muted">Customers who accepted a price on your hosted quote page and asked to be contacted — newest first.</p>
      <RequiresAccess page="leads" needs="Leads are shown to the members of a business and to workspace members allowed to manage businesses.">
        <BusinessScope>{(business) => <BusinessLeads business={business} />}</BusinessScope>
      </RequiresAccess>
    </>
  );
}

function BusinessLeads({ business }: { business: Business }) {
  const workspaces = useWorkspaces();
  const mine = workspaces.data?.workspaces ?? [];
  const canWork = workspaces.data !== undefined && mayWorkLeads(business, mine);
  const canErase = workspaces.data !== undefined && mayEraseLeads(business, mine);
  const [status, setStatus] = useState<LeadStatus | ''>('');
  const leads = useInfiniteQuery({
    queryKey: ['businesses', business.id, 'leads', status],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (status) query.set('status', status);
      if (pageParam) query.set('cursor', pageParam);
      return apiFetch<typeof listLeadsContract>(`/v1/businesses/${business.id}/leads?${query}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const rows = leads.data?.pages.flatMap((p) => p.leads) ?? [];
  return (
    <>
      {!canWork && <p className="notice">You can look but not change: owners and editors of the business move leads along.</p>}
      <div className="field">
        <label htmlFor="leads-status">Status</label>
        <select id="leads-status" value={status} onChange={(e) => setStatus(e.target.value as LeadStatus | '')}>
          <option value="">Every status</option>
          {LEAD_STATUSES.map((s) => (
            <option key={s} value={s}>
              {LEAD_STATUS[s].label}
            </option>
          ))}
        </select>
      </div>
      {leads.isPending ? (
        <Loading what="leads" />
      ) : leads.isError ? (
        <ErrorMessage error={leads.error} />
      ) : rows.length === 0 ? (
        <Empty>
          No leads {status ? `marked ${LEAD_STATUS[status].label.toLowerCase()} ` : ''}yet. Customers accept prices on your{' '}
          <a href={`/q/${business.id}`}>hosted quote page</a>.
        </Empty>
      ) : (
        <div role="list" aria-label="Leads">
          {rows.map((lead) => (
            <div role="listitem" key={lead.id}>
              <LeadCard business={business} lead={lead} canWork={canWork} canErase={canErase} />
            </div>
          ))}
          {leads.hasNextPage && (
            <button type="button" onClick={() => void leads.fetchNextPage()} disabled={leads.isFetchingNextPage}>
              {leads.isFetchingNextPage ? 'Loading…' : 'Show older leads'}
            </button>
          )}
        </div>
      )}
    </>
  );
}

function LeadCard({ business, lead, canWork, canErase }: { business: Business; lead: Lead; canWork: boolean; canErase: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['businesses', business.id, 'leads'] });
    void queryClient.invalidateQueries({ queryKey: ['businesses', business.id, 'overview'] });
    void queryClient.invalidateQueries({ queryKey: ['inbox'] });
  };
  const move = useMutation({
    mutationFn: (status: PipelineStatus) => apiFetch<typeof moveLeadContract>(`/v1/businesses/${business.id}/leads/${lead.id}`, { method: 'PATCH', body: { status } }),
    onSuccess: refresh,
  });
  // One key for the erasure of this lead: a retry after a lost answer replays it.
  const erasureKey = useRef(crypto.randomUUID());
  const erase = useMutation({
    mutationFn: () => apiFetch<typeof eraseLeadContract>(`/v1/businesses/${business.id}/leads/${lead.id}/erasure`, { method: 'POST', idempotencyKey: erasureKey.current }),
    onSuccess: refresh,
  });
  const name = lead.contact?.name ?? 'Personal data erased';
  const shownStatus = move.isPending ? move.variables : lead.status;
  // An erased lead has left the pipeline: nothing to move, nothing left to erase.
  const erased = lead.status === 'erased';
  return (
    <article className="card" aria-labelledby={`${id}-name`}>
      <div className="held-quote-head">
        <h2 id={`${id}-name`} className="held-quote-price">
          {name}
        </h2>
        <span className={`badge ${LEAD_STATUS[lead.status].tone}`}>{LEAD_STATUS[lead.status].label}</span>
        <span className="muted">Accepted {formatTime(lead.createdAt)}</span>
      </div>
      {lead.contact ? (
        <p className="lead-contact">
          {lead.contact.email && <a href={`mailto:${lead.contact.email}`}>{lead.contact.email}</a>}
          {lead.contact.phone && <a href={`tel:${lead.contact.phone.replace(/[^+0-9]/g, '')}`}>{lead.contact.phone}</a>}
        </p>
      ) : (
        <p className="muted">Their contact details were erased on {lead.erasedAt ? formatTime(lead.erasedAt) : 'request'}; the quote and its receipt stay.</p>
      )}
      <dl className="facts">
        <dt>Price</dt>
        <dd>
          <strong>{formatMoney(lead.total.amountMinor, lead.total.currency)}</strong> for {lead.offeringLabel ?? lead.offeringId}
        </dd>
        {lead.preferredDate && (
          <>
            <dt>Preferred day</dt>
            <dd>{new Date(`${lead.preferredDate}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'full', timeZone: 'UTC' })}</dd>
          </>
        )}
        {lead.note && (
          <>
            <dt>Note</dt>
            <dd>{lead.note}</dd>
          </>
        )}
        <dt>Quote</dt>
        <dd>
          <IntentLink href={`/portal/traces/${lead.quoteIntentId}`} aria-label={`Trace of the quote ${name} accepted`}>
            Trace and signed receipt
          </IntentLink>
        </dd>
      </dl>
      {(canWork || canErase) && !erased && (
        <div className="held-quote-actions row">
          {canWork && (
            <div className="field" style={{ margin: 0 }}>
              <label htmlFor={`${id}-status`}>Status</label>
              <select id={`${id}-status`} value={shownStatus} disabled={move.isPending} onChange={(e) => move.mutate(e.target.value as PipelineStatus)}>
                {PIPELINE_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {LEAD_STATUS[s].label}
                  </option>
                ))}
              </select>
            </div>
          )}
          {canErase && lead.contact && (
            <ConfirmButton
              label="Erase personal data"
              accessibleLabel={`Erase the personal data of ${name}`}
              question="Erase their name, email, phone and note everywhere? The quote stays."
              confirmLabel="Erase"
              pending={erase.isPending}
              onConfirm={() => erase.mutate()}
            />
          )}
        </div>
      )}
      <p role="status" className={move.isError || erase.isError ? 'error' : 'sr-only'}>
        {move.isError ? friendlyError(move.error) : erase.isError ? friendlyError(erase.error) : move.isSuccess ? `Marked ${LEAD_STATUS[move.variables].label.toLowerCase()}.` : erase.isSuccess ? 'Their personal data is erased.' : ''}
      </p>
    </article>
  );
}
