'use client';

import { IntentLink } from '../../../../_components/intent-link';
import type { FormEvent } from 'react';
import { ENVIRONMENT_LABEL, ENVIRONMENTS } from '../../../_components/ui';
import { useQuery } from '@tanstack/react-query';
import type { listApiKeysContract } from '@/app/v1/api-keys/contract';
import { apiFetch } from '../../../_components/api';
import type { ApiKey } from '../../api-keys/_components/types';
import { choicesOf, InputField, SelectField } from '../../../_components/form-fields';
import { CALLERS, DEFAULT_PAGE_SIZE, METHODS, PAGE_SIZES, PORTAL_TRAFFIC, STATUS_CLASSES, dateTimeLocalFromIso, searchParamsFromForm } from './request-log-filters';

const STATUS_CLASS_LABELS: Record<(typeof STATUS_CLASSES)[number], string> = {
  '2xx': '2xx succeeded',
  '3xx': '3xx redirected',
  '4xx': '4xx refused',
  '5xx': '5xx server errors',
};

type ListedKey = Pick<ApiKey, 'id' | 'name' | 'environment' | 'last4' | 'status'>;

/** The keys a person can pick by name (every key of their workspaces, revoked ones too: old requests used them). */
function useKeyChoices() {
  return useQuery({ queryKey: ['api-keys', 'all'], queryFn: () => apiFetch<typeof listApiKeysContract>('/v1/api-keys').then((d) => d.apiKeys) });
}

/** A key as the filter names it: "Checkout (Live, …a1b2)", ", revoked" when it is. */
function keyChoices(keys: readonly ListedKey[] | undefined) {
  return (keys ?? []).map((k) => ({ id: k.id, label: `${k.name} (${k.environment === 'live' ? 'Live' : 'Test'}, …${k.last4}${k.status === 'revoked' ? ', revoked' : ''})` }));
}

/**
 * The search filters as a real form: Enter submits, and the browser checks each field.
 * Its initial values come from the URL; the parent remounts it when the URL changes.
 */
export function RequestLogSearchForm({ current, onSearch }: { current: URLSearchParams; onSearch: (params: URLSearchParams) => void }) {
  const keys = useKeyChoices();
  const param = (name: string) => current.get(name) ?? '';
  const chosenKey = param('apiKeyId');
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(searchParamsFromForm(new FormData(event.currentTarget)));
  }

  return (
    <form className="card" role="search" aria-label="Search the request log" onSubmit={submit}>
      <div className="filters">
        <InputField id="log-request-id" label="Request id" fieldClassName="wide" name="requestId" className="mono" defaultValue={param('requestId')} maxLength={100} autoComplete="off" />
        <SelectField id="log-status-class" label="Status class" name="statusClass" defaultValue={param('statusClass')} any="Any status" choices={choicesOf(STATUS_CLASSES, (c) => STATUS_CLASS_LABELS[c])} />
        <InputField id="log-status" label="Exact status" hint="Replaces the class when set." name="status" type="number" min={100} max={599} placeholder="e.g. 422" defaultValue={param('status')} />
        <InputField id="log-path" label="Path starts with" name="path" className="mono" placeholder="/v1/quotes" maxLength={300} defaultValue={param('path')} />
        <SelectField id="log-method" label="Method" name="method" defaultValue={param('method')} any="Any method" choices={choicesOf(METHODS)} />
        <SelectField id="log-caller" label="Caller" name="caller" defaultValue={param('caller')} any="Anyone" choices={choicesOf(CALLERS)} />
        <SelectField id="log-api-key" label="API key" fieldClassName="wide" name="apiKeyId" defaultValue={chosenKey} key={keys.data ? 'loaded' : 'loading'} any="Any key" choices={keyChoices(keys.data)}>
          {chosenKey && !keys.data?.some((k) => k.id === chosenKey) && <option value={chosenKey}>Key {chosenKey.slice(0, 8)}…</option>}
        </SelectField>
        <SelectField
          id="log-environment"
          label="Environment"
          name="environment"
          defaultValue={param('environment')}
          any={`${ENVIRONMENT_LABEL.test} and ${ENVIRONMENT_LABEL.live}`}
          choices={choicesOf(ENVIRONMENTS, (environment) => ENVIRONMENT_LABEL[environment])}
        />
        <InputField id="log-from" label="From" name="from" type="datetime-local" defaultValue={dateTimeLocalFromIso(current.get('from'))} />
        <InputField id="log-to" label="To" name="to" type="datetime-local" defaultValue={dateTimeLocalFromIso(current.get('to'))} />
        <SelectField id="log-portal" label="The portal’s own requests" fieldClassName="wide" name="portal" defaultValue={current.get('portal') ?? 'exclude'} choices={choicesOf(PORTAL_TRAFFIC)} />
        <SelectField id="log-limit" label="Rows per page" name="limit" defaultValue={current.get('limit') ?? DEFAULT_PAGE_SIZE} choices={choicesOf(PAGE_SIZES)} />
      </div>
      <div className="row">
        <button type="submit" className="primary">
          Search
        </button>
        <IntentLink href="/portal/request-logs" className="button">
          Clear filters
        </IntentLink>
      </div>
    </form>
  );
}
