'use client';

import { isHexColour } from '@/lib/businesses/brand-palette';
import { describedBy, FieldError } from '../../../_components/field-error';
import styles from './branding.module.css';

/** A colour as a picker and as #rrggbb text; either one edits the same value. */
export function ColourField({
  id,
  label,
  value,
  onChange,
  fallback,
  errors,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What the picker shows while the text is not a complete colour. */
  fallback: string;
  errors: string[] | undefined;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input
          type="color"
          className={styles.colourPicker}
          aria-label={`${label} picker`}
          value={(isHexColour(value) ? value : fallback).toLowerCase()}
          onChange={(e) => onChange(e.target.value)}
        />
        <input
          id={id}
          type="text"
          className={`mono ${styles.hex}`}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          spellCheck={false}
          autoComplete="off"
          maxLength={7}
          size={9}
          {...describedBy(errorId, errors)}
        />
      </div>
      <FieldError id={errorId} messages={errors} explanation="Enter a colour as # and six hex digits, for example #1d4ed8." />
    </div>
  );
}
