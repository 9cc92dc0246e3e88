'use client';

import { useState, type ComponentProps, type ReactNode } from 'react';
import { ApiError } from './api';

/**
 * The API's field messages (`details.fields`) of a failed save. A field's message is hidden
 * once the person edits that field, so a correction is not still shown as wrong.
 */
export function useFieldErrors(error: unknown) {
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const fields = error instanceof ApiError ? error.fields : {};
  return {
    of: (field: string): string[] | undefined => (edited.has(field) ? undefined : fields[field]),
    any: Object.keys(fields).length > 0,
    markEdited: (field: string) => setEdited((current) => (current.has(field) ? current : new Set(current).add(field))),
    /** Call when saving again: the new answer's messages all show. */
    clearEdited: () => setEdited(new Set()),
  };
}

/**
 * The message under a form field the API refused. `explanation` says it in the portal's
 * words; without one the API's own messages are shown.
 */
export function FieldError({ id, messages, explanation }: { id: string; messages: string[] | undefined; explanation?: string }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="field-error">
      {explanation ?? messages.join(' ')}
    </p>
  );
}

/** Props that tie an input to its FieldError for assistive technology. */
export function describedBy(id: string, messages: string[] | undefined) {
  return messages?.length ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}

/**
 * A labelled input for one field of a save the API checks: typing in it hides the field's old
 * messages, and the API's messages show under it (after the hint). Other props go to the input.
 */
export function CheckedInput({ id, label, field, errors, onValue, hint, explanation, ...input }: Omit<ComponentProps<'input'>, 'id' | 'onChange'> & {
  id: string;
  label: ReactNode;
  /** The field's name in the API's messages. */
  field: string;
  errors: ReturnType<typeof useFieldErrors>;
  onValue: (value: string) => void;
  hint?: ReactNode;
  explanation?: string;
}) {
  const messages = errors.of(field);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        onChange={(e) => {
          onValue(e.target.value);
          errors.markEdited(field);
        }}
        {...describedBy(`${id}-error`, messages)}
        {...input}
      />
      {hint}
      <FieldError id={`${id}-error`} messages={messages} explanation={explanation} />
    </div>
  );
}
