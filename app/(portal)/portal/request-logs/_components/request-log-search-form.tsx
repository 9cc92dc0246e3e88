'use client';

import Link from 'next/link';
import type { FormEvent } from 'react';
import { ENVIRONMENT_LABEL, ENVIRONMENTS } from '../../../_components/ui';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../_components/api';
import { CALLERS, DEFAULT_PAGE_SIZE, METHODS, PAGE_SIZES, PORTAL_TRAFFIC, STATUS_CLASSES, dateTimeLocalFromIso, searchParamsFromForm } from './request-log-filters';

const STATUS_CLASS_LABELS: Record<(typeof STATUS_CLASSES)[number], string> = {
  '2xx': '2xx succeeded',
  '3xx': '3xx redirected',
  '4xx': '4xx refused',
  '5xx': '5xx server errors',
};

type ListedKey = { id: string; name: string; environment: 'test' | 'live'; last4: string; status: string };

/** The keys a person can pick by name (every key of their workspaces, revoked ones too: old requests used them). */
function useKeyChoices() {
  return useQuery({ queryKey: ['api-keys', 'all'], queryFn: () => apiFetch<{ apiKeys: ListedKey[] }>('/v1/api-keys').then((d) => d.apiKeys) });
}

/**
 * The search filters as a real form: Enter submits, and the browser checks each field.
 * Its initial values come from the URL; the parent remounts it when the URL changes.
 */
export function RequestLogSearchForm({ current, onSearch }: { current: URLSearchParams; onSearch: (params: URLSearchParams) => void }) {
  const keys = useKeyChoices();
  const chosenKey = current.get('apiKeyId') ?? '';
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(searchParamsFromForm(new FormData(event.currentTarget)));
  }

  return (
    <form className="card" role="search" aria-label="Search the request log" onSubmit={submit}>
      <div className="filters">
        <div className="field wide">
          <label htmlFor="log-request-id">Request id</label>
          <input id="log-request-id" name="requestId" className="mono" defaultValue={current.get('requestId') ?? ''} maxLength={100} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="log-status-class">Status class</label>
          <select id="log-status-class" name="statusClass" defaultValue={current.get('statusClass') ?? ''}>
            <option value="">Any status</option>
            {STATUS_CLASSES.map((c) => (
              <option key={c} value={c}>
                {STATUS_CLASS_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-status">Exact status</label>
          <input id="log-status" name="status" type="number" min={100} max={599} placeholder="e.g. 422" defaultValue={current.get('status') ?? ''} />
          <span className="hint">Replaces the class when set.</span>
        </div>
        <div className="field">
          <label htmlFor="log-path">Path starts with</label>
          <input id="log-path" name="path" className="mono" placeholder="/v1/quotes" maxLength={300} defaultValue={current.get('path') ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="log-method">Method</label>
          <select id="log-method" name="method" defaultValue={current.get('method') ?? ''}>
            <option value="">Any method</option>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-caller">Caller</label>
          <select id="log-caller" name="caller" defaultValue={current.get('caller') ?? ''}>
            <option value="">Anyone</option>
            {Object.entries(CALLERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field wide">
          <label htmlFor="log-api-key">API key</label>
          <select id="log-api-key" name="apiKeyId" defaultValue={chosenKey} key={keys.data ? 'loaded' : 'loading'}>
            <option value="">Any key</option>
            {chosenKey && !keys.data?.some((k) => k.id === chosenKey) && <option value={chosenKey}>Key {chosenKey.slice(0, 8)}…</option>}
            {keys.data?.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.environment === 'live' ? 'Live' : 'Test'}, …{k.last4}{k.status === 'revoked' ? ', revoked' : ''})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-environment">Environment</label>
          <select id="log-environment" name="environment" defaultValue={current.get('environment') ?? ''}>
            <option value="">
              {ENVIRONMENT_LABEL.test} and {ENVIRONMENT_LABEL.live}
            </option>
            {ENVIRONMENTS.map((environment) => (
              <option key={environment} value={environment}>
                {ENVIRONMENT_LABEL[environment]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-from">From</label>
          <input id="log-from" name="from" type="datetime-local" defaultValue={dateTimeLocalFromIso(current.get('from'))} />
        </div>
        <div className="field">
          <label htmlFor="log-to">To</label>
          <input id="log-to" name="to" type="datetime-local" defaultValue={dateTimeLocalFromIso(current.get('to'))} />
        </div>
        <div className="field wide">
          <label htmlFor="log-portal">The portal’s own requests</label>
          <select id="log-portal" name="portal" defaultValue={current.get('portal') ?? 'exclude'}>
            {Object.entries(PORTAL_TRAFFIC).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="log-limit">Rows per page</label>
          <select id="log-limit" name="limit" defaultValue={current.get('limit') ?? DEFAULT_PAGE_SIZE}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="row">
        <button type="submit" className="primary">
          Search
        </button>
        <Link href="/portal/request-logs" className="button">
          Clear filters
        </Link>
      </div>
    </form>
  );
}
