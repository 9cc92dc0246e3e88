'use client';

import type { ComponentProps, ReactNode } from 'react';
import { ErrorMessage } from './ui';

/** A choice of a select: the value it sends and what the person reads. */
export type SelectChoice = { id: string; label: ReactNode };

/** Choices for a list of values, each read as `labelOf` names it (as itself by default), or for a record of labels by value. */
export function choicesOf<T extends string>(values: readonly T[], labelOf?: (value: T) => ReactNode): SelectChoice[];
export function choicesOf(labels: Readonly<Record<string, ReactNode>>): SelectChoice[];
export function choicesOf(values: readonly string[] | Readonly<Record<string, ReactNode>>, labelOf: (value: string) => ReactNode = (value) => value): SelectChoice[] {
  if (!Array.isArray(values)) return Object.entries(values as Record<string, ReactNode>).map(([id, label]) => ({ id, label }));
  return values.map((id) => ({ id, label: labelOf(id) }));
}

/** The `<option>`s of a select, one a choice, in order. */
export function Options({ choices }: { choices: readonly SelectChoice[] }) {
  return choices.map((choice) => (
    <option key={choice.id} value={choice.id}>
      {choice.label}
    </option>
  ));
}

type FieldFrame = {
  id: string;
  label: ReactNode;
  /** Classes of the frame beside `field`, e.g. `wide` or `picker`. */
  fieldClassName?: string;
  /** A line under the control. */
  hint?: ReactNode;
};

/** A control with its label above it (and a hint under it), in the portal's `.field` layout. */
export function Field({ id, label, fieldClassName, hint, children }: FieldFrame & { children: ReactNode }) {
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <span className="hint">{hint}</span>}
    </div>
  );
}

/** A labelled input; other props go to the input. */
export function InputField({ id, label, fieldClassName, hint, ...input }: FieldFrame & Omit<ComponentProps<'input'>, 'id'>) {
  return (
    <Field id={id} label={label} fieldClassName={fieldClassName} hint={hint}>
      <input id={id} {...input} />
    </Field>
  );
}

/**
 * A labelled select: `any` leads it with an option of the empty value (no filter), `choices`
 * follow, then any other options given as children. Other props go to the select.
 */
export function SelectField({ id, label, fieldClassName, hint, any, choices = [], children, ...select }: FieldFrame &
  Omit<ComponentProps<'select'>, 'id'> & {
    any?: ReactNode;
    choices?: readonly SelectChoice[];
  }) {
  return (
    <Field id={id} label={label} fieldClassName={fieldClassName} hint={hint}>
      <select id={id} {...select}>
        {any !== undefined && <option value="">{any}</option>}
        {children}
        <Options choices={choices} />
      </select>
    </Field>
  );
}

/** The end of a form: why the save failed (when `error` is set), then the submit button beside Cancel. */
export function SubmitOrCancel({ error, submit, disabled, onCancel }: { error?: unknown; submit: ReactNode; disabled?: boolean; onCancel: () => void }) {
  return (
    <>
      {error ? <ErrorMessage error={error} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={disabled}>
          {submit}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
