'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { EVENT_TYPES, type EventType } from '@/lib/events/catalogue';
import { ApiError, apiFetch } from '../../../_components/api';
import { describedBy, FieldError, useFieldErrors } from '../../../_components/field-error';
import { ENVIRONMENT_LABEL, ENVIRONMENTS, ErrorMessage } from '../../../_components/ui';
import { EVENT_CATALOGUE } from '@/lib/events/catalogue';
import { webhookQueryKeys, type Endpoint, type RevealedSigningSecret } from './types';
import styles from './webhooks.module.css';

// Test events reach the endpoint they are sent to whatever its filter says.
const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook.test');

type EndpointFormProps = { projectId: string; onCancel: () => void } & (
  | { endpoint?: undefined; onCreated: (revealed: RevealedSigningSecret) => void }
  /** Editing keeps the endpoint's environment, secret and delivery history. */
  | { endpoint: Endpoint; onSaved: () => void }
);

/** "Add endpoint" or "Edit endpoint": URL, environment (when adding), event filter (none = all) and a description. */
export function EndpointForm(props: EndpointFormProps) {
  const { projectId, endpoint, onCancel } = props;
  const queryClient = useQueryClient();
  const id = useId();
  const urlRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [environment, setEnvironment] = useState<'test' | 'live'>(endpoint?.environment ?? 'test');
  const [eventTypes, setEventTypes] = useState<EventType[]>(() => SUBSCRIBABLE.filter((t) => endpoint?.eventTypes.includes(t)));
  const [description, setDescription] = useState(endpoint?.description ?? '');
  useEffect(() => urlRef.current?.focus(), []);

  const create = useMutation({
    mutationFn: (): Promise<{ endpoint: Endpoint; secret?: string }> =>
      endpoint
        ? apiFetch<{ endpoint: Endpoint }>(`/v1/webhook-endpoints/${endpoint.id}`, {
            method: 'PATCH',
            body: { url: url.trim(), eventTypes, description: description.trim() || null },
          })
        : apiFetch<{ endpoint: Endpoint; secret: string }>('/v1/webhook-endpoints', {
            method: 'POST',
            body: { projectId, environment, url: url.trim(), eventTypes, ...(description.trim() ? { description: description.trim() } : {}) },
          }),
    // A new endpoint's answer holds the signing secret: let it leave the mutation cache as soon as nothing watches.
    gcTime: 0,
  });
  const fieldErrors = useFieldErrors(create.error);
  const urlProblem = fieldErrors.of('url');
  const eventTypeProblem = create.error instanceof ApiError && Object.keys(create.error.fields).some((f) => f.startsWith('eventTypes'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    const saved = await create.mutateAsync().catch(() => null);
    if (!saved) return;
    create.reset();
    void queryClient.invalidateQueries({ queryKey: webhookQueryKeys.endpoints(projectId) });
    if (props.endpoint) props.onSaved();
    else if (saved.secret) props.onCreated({ kind: 'created', endpoint: saved.endpoint, secret: saved.secret });
  };
  const toggle = (type: EventType, on: boolean) =>
    setEventTypes((current) => SUBSCRIBABLE.filter((t) => (t === type ? on : current.includes(t))));

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{endpoint ? 'Edit endpoint' : 'Add an endpoint'}</h2>
      <fieldset className={styles.plainFieldset} disabled={create.isPending}>
        <div className="field">
          <label htmlFor={`${id}-url`}>URL</label>
          <input
            ref={urlRef}
            id={`${id}-url`}
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              fieldErrors.markEdited('url');
            }}
            placeholder="https://example.com/hooks/quotes"
            className={`mono ${styles.wideInput}`}
            spellCheck={false}
            autoComplete="off"
            {...describedBy(`${id}-url-error`, urlProblem)}
          />
          <span className="hint">Your server’s address for deliveries. It must start with https://.</span>
          <FieldError id={`${id}-url-error`} messages={urlProblem} explanation={urlProblem && `This URL ${urlProblem.join('; ')}.`} />
        </div>
        {endpoint ? (
          <p className="hint">Environment: {ENVIRONMENT_LABEL[endpoint.environment]} (an endpoint keeps the environment it was added to).</p>
        ) : (
          <fieldset className={styles.choiceGroup}>
            <legend>Environment</legend>
            {ENVIRONMENTS.map((env) => (
              <label key={env} className={styles.choice}>
                <input type="radio" name={`${id}-environment`} value={env} checked={environment === env} onChange={() => setEnvironment(env)} />
                {ENVIRONMENT_LABEL[env]}
                <span className="muted">{env === 'test' ? ' — events of your Test keys and prices' : ' — events of your real customers'}</span>
              </label>
            ))}
          </fieldset>
        )}
        <fieldset className={styles.choiceGroup}>
          <legend>Events</legend>
          <p className="hint" style={{ margin: '0 0 0.4rem' }}>
            Leave all unticked to receive every event. Test events you send always arrive.
          </p>
          <div className={styles.eventChoices}>
            {SUBSCRIBABLE.map((type) => (
              <label key={type} className={styles.choice}>
                <input type="checkbox" checked={eventTypes.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
                <span>
                  <code>{type}</code> <span className="muted">— {EVENT_CATALOGUE[type].meaning}</span>
                </span>
              </label>
            ))}
          </div>
          {eventTypeProblem && <p className="field-error">The service does not know one of these event types. Reload the page and try again.</p>}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-description`}>Description (optional)</label>
          <input
            id={`${id}-description`}
            type="text"
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              fieldErrors.markEdited('description');
            }}
            maxLength={500}
            placeholder="e.g. CRM sync"
            className={styles.wideInput}
            {...describedBy(`${id}-description-error`, fieldErrors.of('description'))}
          />
          <FieldError id={`${id}-description-error`} messages={fieldErrors.of('description')} />
        </div>
        {create.isError && !fieldErrors.any && <ErrorMessage error={create.error} />}
        <div className="row">
          <button type="submit" className="primary">
            {endpoint ? (create.isPending ? 'Saving…' : 'Save changes') : create.isPending ? 'Adding…' : 'Add endpoint'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}
