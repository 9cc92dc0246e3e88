'use client';

import { useEffect, useRef, useState } from 'react';
import type { createApiKeyContract } from '@/app/v1/api-keys/contract';
import { SCOPES, TEST_ONLY_SCOPES, type Scope } from '@/lib/auth/scopes';
import { apiFetch } from '../../../_components/api';
import { Choice, ChoiceGroup, EnvironmentChoice, PlainFieldset } from '../../../_components/choice-group';
import { CheckedInput, FieldError } from '../../../_components/field-error';
import { SubmitOrCancel } from '../../../_components/form-fields';
import { useSaveForm } from '../../../_components/save-form';
import styles from './api-keys.module.css';
import { apiKeysQueryKey, type ApiKey, type Environment, type RevealedSecret } from './types';

const SCOPE_MEANING: Record<Scope, string> = {
  'accounts:read': 'list and read accounts',
  'quote-spec:read': 'read the published price book',
  'simulations:write': 'run price simulations (nothing is saved)',
  'quotes:write': 'create quotes',
  'commitments:write': 'confirm bookings',
  'logs:read': 'read the request log',
  'events:listen': 'stream Test events to a developer’s machine (qps listen)',
  'events:trigger': 'make Test events happen on purpose: a key rotated, a book republished (qps trigger)',
};

const ENVIRONMENT_MEANING = {
  test: ' — for building and trying things; uses your Test prices',
  live: ' — for real customers; uses your Live prices',
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
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>('test');
  const [scopes, setScopes] = useState<Scope[]>([...SCOPES]);
  // A Test-only scope is not offered for a Live key (it could not use it).
  const offered = SCOPES.filter((scope) => environment === 'test' || !TEST_ONLY_SCOPES.includes(scope));
  useEffect(() => nameRef.current?.focus(), []);

  const { mutation: create, fieldErrors, submit } = useSaveForm({
    save: () =>
      apiFetch<typeof createApiKeyContract>('/v1/api-keys', {
        method: 'POST',
        body: { projectId, name: name.trim(), environment, scopes: scopes.filter((scope) => offered.includes(scope)) },
      }),
    refresh: apiKeysQueryKey(projectId),
    onSaved: (created) => {
      // Null only on a replay of the same Idempotency-Key, which this call never sends.
      if (created.secret !== null) onCreated({ kind: 'created', apiKey: created.apiKey, secret: created.secret });
    },
  });
  const toggleScope = (scope: Scope, on: boolean) =>
    setScopes((current) => SCOPES.filter((s) => (s === scope ? on : current.includes(s))));

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="create-key-heading">
      <h2 id="create-key-heading" style={{ marginTop: 0 }}>
        Create a key
      </h2>
      <PlainFieldset disabled={create.isPending}>
        <CheckedInput
          ref={nameRef}
          id="key-name"
          label="Name"
          field="name"
          errors={fieldErrors}
          type="text"
          value={name}
          onValue={setName}
          maxLength={200}
          placeholder="e.g. Checkout server"
          className={styles.nameInput}
          explanation="Give the key a name that says what uses it."
        />
        <EnvironmentChoice name="environment" value={environment} onChange={setEnvironment} meaning={ENVIRONMENT_MEANING}>
          <FieldError id="key-environment-error" messages={fieldErrors.of('environment')} />
        </EnvironmentChoice>
        <ChoiceGroup legend="Scopes">
          <p className={`muted ${styles.hint}`}>What the key may do on the account API (/v1/accounts/…). All are chosen unless you narrow them.</p>
          {offered.map((scope) => (
            <Choice key={scope}>
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggleScope(scope, e.target.checked)} />
              <code>{scope}</code>
              <span className="muted"> — {SCOPE_MEANING[scope]}</span>
            </Choice>
          ))}
          <FieldError id="key-scopes-error" messages={fieldErrors.of('scopes')} />
        </ChoiceGroup>
        <SubmitOrCancel error={fieldErrors.any ? null : create.error} submit={create.isPending ? 'Creating…' : 'Create key'} onCancel={onCancel} />
      </PlainFieldset>
    </form>
  );
}
