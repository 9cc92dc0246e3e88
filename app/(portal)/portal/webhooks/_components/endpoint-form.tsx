'use client';

import { useEffect, useId, useRef, useState } from 'react';
import type { AnswerOf } from '@/lib/http/contract';
import type { createEndpointContract, updateEndpointContract } from '@/app/v1/webhook-endpoints/contract';
import { EVENT_TYPES, type EventType } from '@/lib/events/event-types';
import { ApiError, apiFetch } from '../../../_components/api';
import { Choice, ChoiceGroup, EnvironmentChoice, PlainFieldset } from '../../../_components/choice-group';
import { CheckedInput } from '../../../_components/field-error';
import { SubmitOrCancel } from '../../../_components/form-fields';
import { useSaveForm } from '../../../_components/save-form';
import { ENVIRONMENT_LABEL } from '../../../_components/ui';
import { EVENT_MEANINGS } from '@/lib/event-catalogue/meanings';
import { webhookQueryKeys, type Endpoint, type RevealedSigningSecret } from './types';
import styles from './webhooks.module.css';

// Test events reach the endpoint they are sent to whatever its filter says.
const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook.test');

const ENVIRONMENT_MEANING = { test: ' — events of your Test keys and prices', live: ' — events of your real customers' };

type EndpointFormProps = { projectId: string; onCancel: () => void } & (
  | { endpoint?: undefined; onCreated: (revealed: RevealedSigningSecret) => void }
  /** Editing keeps the endpoint's environment, secret and delivery history. */
  | { endpoint: Endpoint; onSaved: () => void }
);

/** "Add endpoint" or "Edit endpoint": URL, environment (when adding), event filter (none = all) and a description. */
export function EndpointForm(props: EndpointFormProps) {
  const { projectId, endpoint, onCancel } = props;
  const id = useId();
  const urlRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [environment, setEnvironment] = useState<'test' | 'live'>(endpoint?.environment ?? 'test');
  const [eventTypes, setEventTypes] = useState<EventType[]>(() => SUBSCRIBABLE.filter((t) => endpoint?.eventTypes.includes(t)));
  const [description, setDescription] = useState(endpoint?.description ?? '');
  useEffect(() => urlRef.current?.focus(), []);

  const { mutation: create, fieldErrors, submit } = useSaveForm({
    save: (): Promise<AnswerOf<typeof updateEndpointContract> | AnswerOf<typeof createEndpointContract>> =>
      endpoint
        ? apiFetch<typeof updateEndpointContract>(`/v1/webhook-endpoints/${endpoint.id}`, {
            method: 'PATCH',
            body: { url: url.trim(), eventTypes, description: description.trim() || null },
          })
        : apiFetch<typeof createEndpointContract>('/v1/webhook-endpoints', {
            method: 'POST',
            body: { projectId, environment, url: url.trim(), eventTypes, ...(description.trim() ? { description: description.trim() } : {}) },
          }),
    refresh: webhookQueryKeys.endpoints(projectId),
    onSaved: (saved) => {
      if (props.endpoint) props.onSaved();
      // A creation's secret: null only on a replay of the same Idempotency-Key, which this call never sends.
      else if ('secret' in saved && saved.secret !== null) props.onCreated({ kind: 'created', endpoint: saved.endpoint, secret: saved.secret });
    },
  });
  const urlProblem = fieldErrors.of('url');
  const eventTypeProblem = create.error instanceof ApiError && Object.keys(create.error.fields).some((f) => f.startsWith('eventTypes'));
  const toggle = (type: EventType, on: boolean) =>
    setEventTypes((current) => SUBSCRIBABLE.filter((t) => (t === type ? on : current.includes(t))));

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{endpoint ? 'Edit endpoint' : 'Add an endpoint'}</h2>
      <PlainFieldset disabled={create.isPending}>
        <CheckedInput
          ref={urlRef}
          id={`${id}-url`}
          label="URL"
          field="url"
          errors={fieldErrors}
          type="url"
          inputMode="url"
          value={url}
          onValue={setUrl}
          placeholder="https://example.com/hooks/quotes"
          className={`mono ${styles.wideInput}`}
          spellCheck={false}
          autoComplete="off"
          hint={<span className="hint">Your server’s address for deliveries. It must start with https://.</span>}
          explanation={urlProblem && `This URL ${urlProblem.join('; ')}.`}
        />
        {endpoint ? (
          <p className="hint">Environment: {ENVIRONMENT_LABEL[endpoint.environment]} (an endpoint keeps the environment it was added to).</p>
        ) : (
          <EnvironmentChoice name={`${id}-environment`} value={environment} onChange={setEnvironment} meaning={ENVIRONMENT_MEANING} />
        )}
        <ChoiceGroup legend="Events">
          <p className="hint" style={{ margin: '0 0 0.4rem' }}>
            Leave all unticked to receive every event. Test events you send always arrive.
          </p>
          <div className={styles.eventChoices}>
            {SUBSCRIBABLE.map((type) => (
              <Choice key={type}>
                <input type="checkbox" checked={eventTypes.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
                <span>
                  <code>{type}</code> <span className="muted">— {EVENT_MEANINGS[type].meaning}</span>
                </span>
              </Choice>
            ))}
          </div>
          {eventTypeProblem && <p className="field-error">The service does not know one of these event types. Reload the page and try again.</p>}
        </ChoiceGroup>
        <CheckedInput
          id={`${id}-description`}
          label="Description (optional)"
          field="description"
          errors={fieldErrors}
          type="text"
          value={description}
          onValue={setDescription}
          maxLength={500}
          placeholder="e.g. CRM sync"
          className={styles.wideInput}
        />
        <SubmitOrCancel
          error={fieldErrors.any ? null : create.error}
          submit={endpoint ? (create.isPending ? 'Saving…' : 'Save changes') : create.isPending ? 'Adding…' : 'Add endpoint'}
          onCancel={onCancel}
        />
      </PlainFieldset>
    </form>
  );
}
