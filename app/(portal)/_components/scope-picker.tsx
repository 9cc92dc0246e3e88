'use client';

import { Fragment, type ReactNode } from 'react';
import { SelectField } from './form-fields';
import type { useUrlSelection } from './url-selection';

/**
 * The picker above a page scoped to one business or project, the note shown when the link named
 * one this person cannot see, and the page's part, keyed by the choice so that its local state
 * starts afresh on a switch.
 */
export function ScopePicker({ noun, label, selection, selected, options, children }: {
  /** What is picked ("business"): it names the picker's id and the note. */
  noun: string;
  label: string;
  selection: ReturnType<typeof useUrlSelection>;
  selected: { id: string; name: string };
  /** The picker's options. */
  options: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <SelectField id={`${noun}-picker`} label={label} fieldClassName="picker" value={selected.id} onChange={(e) => selection.select(e.target.value)}>
        {options}
      </SelectField>
      {selection.requestedUnknown && (
        <p className="notice">
          The {noun} in the link is not one you can see, so {selected.name} is shown instead.
        </p>
      )}
      <Fragment key={selected.id}>{children}</Fragment>
    </>
  );
}
