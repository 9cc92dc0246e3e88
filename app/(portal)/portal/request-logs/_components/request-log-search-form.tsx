'use client';

import Link from 'next/link';
import type { FormEvent } from 'react';
import { ENVIRONMENT_LABEL, ENVIRONMENTS } from '../../../_components/ui';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, STATUS_CLASSES, dateTimeLocalFromIso, searchParamsFromForm } from './request-log-filters';

const STATUS_CLASS_LABELS: Record<(typeof STATUS_CLASSES)[number], string> = {
  '2xx': '2xx succeeded',
  '3xx': '3xx redirected',
  '4xx': '4xx refused',
  '5xx': '5xx server errors',
};

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * The search filters as a real form: Enter submits, and the browser checks each field.
 * Its initial values come from the URL; the parent remounts it when the URL changes.
 */
export function RequestLogSearchForm({ current, onSearch }: { current: URLSearchParams; onSearch: (params: URLSearchParams) => void }) {
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
        <div className="field wide">
          <label htmlFor="log-api-key">API key id</label>
          <input
            id="log-api-key"
            name="apiKeyId"
            className="mono"
            pattern={UUID_PATTERN}
            title="The key's id, a UUID such as 3f2b…-…"
            autoComplete="off"
            defaultValue={current.get('apiKeyId') ?? ''}
          />
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
