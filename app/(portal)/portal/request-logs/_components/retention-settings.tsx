'use client';

import { useId, useState } from 'react';
import type { updateWorkspaceContract } from '@/app/v1/workspaces/contract';
import { holdsEveryPermission } from '@/lib/auth/workspace-permissions';
import { apiFetch } from '../../../_components/api';
import { CheckedInput } from '../../../_components/field-error';
import { PlainFieldset } from '../../../_components/choice-group';
import { SubmitOrCancel } from '../../../_components/form-fields';
import { useWorkspaces, type Workspace } from '../../../_components/queries';
import { useSaveForm } from '../../../_components/save-form';

/**
 * How long each of the person's workspaces keeps its request log, under the search. A workspace
 * admin changes it here (PATCH /v1/workspaces/{id}); everyone else reads it.
 */
export function RetentionSettings() {
  const workspaces = (useWorkspaces().data?.workspaces ?? []).filter((w) => w.permissions.includes('logs:read'));
  if (workspaces.length === 0) return null;
  return (
    <details className="card">
      <summary>How long requests are kept</summary>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {workspaces.map((workspace) => (
          <WorkspaceRetention key={workspace.id} workspace={workspace} named={workspaces.length > 1} />
        ))}
      </ul>
    </details>
  );
}

function WorkspaceRetention({ workspace, named }: { workspace: Workspace; named: boolean }) {
  const [editing, setEditing] = useState(false);
  const { days, setByWorkspace } = workspace.requestLogRetention;
  return (
    <li>
      <p>
        {named ? <strong>{workspace.name}: </strong> : null}
        Requests are shown for {days} days{setByWorkspace ? ' (set for this workspace)' : " (the service's default)"}; older ones are
        left out of searches, lookups and traces.{' '}
        {holdsEveryPermission(workspace.permissions) && !editing ? (
          <button type="button" onClick={() => setEditing(true)}>
            Change
          </button>
        ) : null}
      </p>
      {editing ? <RetentionForm workspace={workspace} onDone={() => setEditing(false)} /> : null}
    </li>
  );
}

function RetentionForm({ workspace, onDone }: { workspace: Workspace; onDone: () => void }) {
  const id = useId();
  const [days, setDays] = useState(String(workspace.requestLogRetention.days));
  const [useDefault, setUseDefault] = useState(false);
  const { mutation, fieldErrors, submit } = useSaveForm({
    save: () =>
      apiFetch<typeof updateWorkspaceContract>(`/v1/workspaces/${workspace.id}`, {
        method: 'PATCH',
        body: { requestLogRetentionDays: useDefault ? null : Number(days.trim()) },
      }),
    refresh: ['workspaces'],
    onSaved: onDone,
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Request log retention of ${workspace.name}`}>
      <PlainFieldset disabled={mutation.isPending}>
        <CheckedInput
          id={`${id}-days`}
          label="Days to keep"
          field="requestLogRetentionDays"
          errors={fieldErrors}
          type="number"
          inputMode="numeric"
          min={1}
          max={3650}
          value={days}
          onValue={(value) => {
            setDays(value);
            setUseDefault(false);
          }}
          disabled={useDefault}
          explanation={fieldErrors.of('requestLogRetentionDays') && 'Enter a whole number of days from 1 to 3650.'}
          hint={
            <span className="hint">
              From 1 to 3650. Fewer days hide older requests at once; more days keep them longer for everyone in the workspace.
            </span>
          }
        />
        {workspace.requestLogRetention.setByWorkspace ? (
          <label className="row">
            <input type="checkbox" checked={useDefault} onChange={(e) => setUseDefault(e.target.checked)} />
            Use the service&apos;s default instead
          </label>
        ) : null}
        <SubmitOrCancel error={fieldErrors.any ? null : mutation.error} submit={mutation.isPending ? 'Saving…' : 'Save'} onCancel={onDone} />
      </PlainFieldset>
    </form>
  );
}
