'use client';

import type { ReactNode } from 'react';
import { ENVIRONMENT_LABEL, ENVIRONMENTS } from './ui';
import styles from './choice-group.module.css';

/** A form's controls in a borderless fieldset, so that `disabled` (a save in flight) disables them all. */
export function PlainFieldset({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    <fieldset className={styles.plainFieldset} disabled={disabled}>
      {children}
    </fieldset>
  );
}

/** Radio buttons or checkboxes under a legend. */
export function ChoiceGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** One radio button or checkbox of a ChoiceGroup with its words beside it. */
export function Choice({ children }: { children: ReactNode }) {
  return <label className={styles.choice}>{children}</label>;
}

type Environment = (typeof ENVIRONMENTS)[number];

/** Test or Live, each with what it means for the thing being made; `children` go under the choices (a field error). */
export function EnvironmentChoice({ name, value, onChange, meaning, children }: {
  name: string;
  value: Environment;
  onChange: (environment: Environment) => void;
  meaning: Record<Environment, string>;
  children?: ReactNode;
}) {
  return (
    <ChoiceGroup legend="Environment">
      {ENVIRONMENTS.map((env) => (
        <Choice key={env}>
          <input type="radio" name={name} value={env} checked={value === env} onChange={() => onChange(env)} />
          {ENVIRONMENT_LABEL[env]}
          <span className="muted">{meaning[env]}</span>
        </Choice>
      ))}
      {children}
    </ChoiceGroup>
  );
}
