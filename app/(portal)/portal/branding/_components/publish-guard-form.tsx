'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { setPublishGuardContract } from '@/app/v1/businesses/contract';
import { ApiError, apiFetch } from '../../../_components/api';
import { describedBy, FieldError, useFieldErrors } from '../../../_components/field-error';
import { useWorkspaces, type Business } from '../../../_components/queries';
import { ErrorMessage } from '../../../_components/ui';
import { mayEditSafeguard } from '../../../_components/portal-access';
import { WhoCanChange } from './who-can-change';

/** The safeguard's two figures, in the order the sentence reads them. */
const GUARD_FIELDS: { field: 'sharePercent' | 'changePercent'; idSuffix: string; label: string; range: [number, number] }[] = [
  { field: 'sharePercent', idSuffix: 'share', label: 'Ask when more than (% of quotes)', range: [0, 100] },
  { field: 'changePercent', idSuffix: 'change', label: 'change by more than (%)', range: [1, 1000] },
];

/**
 * When publishing a book to Live asks for a typed confirmation: more than `sharePercent` of the
 * last 7 days' quotes changing by more than `changePercent` (portal-access: mayEditSafeguard).
 */
export function PublishGuardForm({ business }: { business: Business }) {
  const id = useId();
  const workspaces = useWorkspaces();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ changePercent: String(business.publishGuard.changePercent), sharePercent: String(business.publishGuard.sharePercent) });
  const save = useMutation({
    mutationFn: (body: { changePercent: number; sharePercent: number }) => apiFetch<typeof setPublishGuardContract>(`/v1/businesses/${business.id}/publish-guard`, { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['businesses'] }),
  });
  const fieldErrors = useFieldErrors(save.error);
  const refused = save.error instanceof ApiError && save.error.status === 403;
  const editable = !refused && (workspaces.isError || (workspaces.data !== undefined && mayEditSafeguard(business, workspaces.data.workspaces)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    save.mutate({ changePercent: Number(draft.changePercent), sharePercent: Number(draft.sharePercent) });
  };
  const edit = (field: 'changePercent' | 'sharePercent', value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    fieldErrors.markEdited(field);
    if (save.isSuccess) save.reset();
  };

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`} style={{ marginTop: '1.5rem', maxWidth: '40rem' }}>
      <h2 id={`${id}-heading`} style={{ marginTop: 0 }}>
        Publishing safeguard
      </h2>
      <p className="muted">
        Before a price book goes Live, its prices are tried on the last 7 days of your customers&apos; quotes. When too many of them would change a lot,
        the person publishing must type a confirmation, and the publication history keeps what they were shown.
      </p>
      {!editable && <WhoCanChange business={business} what="publishing safeguard" />}
      <fieldset disabled={!editable || save.isPending}>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          {GUARD_FIELDS.map(({ field, idSuffix, label, range }) => (
            <WholePercentField
              key={field}
              id={`${id}-${idSuffix}`}
              label={label}
              range={range}
              value={draft[field]}
              onChange={(value) => edit(field, value)}
              errors={fieldErrors.of(field)}
            />
          ))}
        </div>
        <button type="submit" className="primary">
          {save.isPending ? 'Saving…' : 'Save safeguard'}
        </button>
      </fieldset>
      <div aria-live="polite">
        {save.isSuccess && (
          <p className="success" style={{ marginBottom: 0 }}>
            Saved. The next publication to Live is checked against it.
          </p>
        )}
        {save.isError && !fieldErrors.any && <ErrorMessage error={save.error} />}
      </div>
    </form>
  );
}

function WholePercentField({ id, label, range: [min, max], value, onChange, errors }: {
  id: string;
  label: string;
  range: [number, number];
  value: string;
  onChange: (value: string) => void;
  errors: string[] | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" min={min} max={max} inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} {...describedBy(`${id}-error`, errors)} />
      <FieldError id={`${id}-error`} messages={errors} explanation={`A whole number from ${min} to ${max}.`} />
    </div>
  );
}
