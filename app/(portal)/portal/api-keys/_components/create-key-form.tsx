'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SCOPES, type Scope } from '@/lib/auth/scopes';
import { apiFetch } from '../../../_components/api';
import { describedBy, FieldError, useFieldErrors } from '../../../_components/field-error';
import { ENVIRONMENT_LABEL, ENVIRONMENTS, ErrorMessage } from '../../../_components/ui';
import styles from './api-keys.module.css';
import { apiKeysQueryKey, type ApiKey, type Environment, type RevealedSecret } from './types';

const SCOPE_MEANING: Record<Scope, string> = {
  'accounts:read': 'list and read accounts',
  'quote-spec:read': 'read the published price book',
  'simulations:write': 'run price simulations (nothing is saved)',
  'quotes:write': 'create quotes',
  'commitments:write': 'confirm bookings',
  'logs:read': 'read the request log',
};

export function CreateKeyForm({
  projectId,
  onCreated,
  onCancel,
}: {
  projectId: string;
  onCreated: (revealed: RevealedSecret) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>('test');
  const [scopes, setScopes] = useState<Scope[]>([...SCOPES]);
  useEffect(() => nameRef.current?.focus(), []);

  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ apiKey: ApiKey; secret: string }>('/v1/api-keys', {
        method: 'POST',
        body: { projectId, name: name.trim(), environment, scopes },
      }),
    // The answer holds the secret: let it leave the mutation cache as soon as nothing watches.
    gcTime: 0,
  });
  const fieldErrors = useFieldErrors(create.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    const created = await create.mutateAsync().catch(() => null);
    if (!created) return;
    create.reset();
    void queryClient.invalidateQueries({ queryKey: apiKeysQueryKey(projectId) });
    onCreated({ kind: 'created', apiKey: created.apiKey, secret: created.secret });
  };
  const toggleScope = (scope: Scope, on: boolean) =>
    setScopes((current) => SCOPES.filter((s) => (s === scope ? on : current.includes(s))));

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="create-key-heading">
      <h2 id="create-key-heading" style={{ marginTop: 0 }}>
        Create a key
      </h2>
      <fieldset className={styles.plainFieldset} disabled={create.isPending}>
        <div className="field">
          <label htmlFor="key-name">Name</label>
          <input
            ref={nameRef}
            id="key-name"
            type="text"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fieldErrors.markEdited('name');
            }}
            maxLength={200}
            placeholder="e.g. Checkout server"
            className={styles.nameInput}
            {...describedBy('key-name-error', fieldErrors.of('name'))}
          />
          <FieldError id="key-name-error" messages={fieldErrors.of('name')} explanation="Give the key a name that says what uses it." />
        </div>
        <fieldset className={styles.choiceGroup}>
          <legend>Environment</legend>
          {ENVIRONMENTS.map((env) => (
            <label key={env} className={styles.choice}>
              <input type="radio" name="environment" value={env} checked={environment === env} onChange={() => setEnvironment(env)} />
              {ENVIRONMENT_LABEL[env]}
              <span className="muted">
                {env === 'test' ? ' — for building and trying things; uses your Test prices' : ' — for real customers; uses your Live prices'}
              </span>
            </label>
          ))}
          <FieldError id="key-environment-error" messages={fieldErrors.of('environment')} />
        </fieldset>
        <fieldset className={styles.choiceGroup}>
          <legend>Scopes</legend>
          <p className={`muted ${styles.hint}`}>What the key may do on the account API (/v1/accounts/…). All are chosen unless you narrow them.</p>
          {SCOPES.map((scope) => (
            <label key={scope} className={styles.choice}>
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggleScope(scope, e.target.checked)} />
              <code>{scope}</code>
              <span className="muted"> — {SCOPE_MEANING[scope]}</span>
            </label>
          ))}
          <FieldError id="key-scopes-error" messages={fieldErrors.of('scopes')} />
        </fieldset>
        {create.isError && !fieldErrors.any && <ErrorMessage error={create.error} />}
        <div className="row">
          <button type="submit" className="primary">
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}
