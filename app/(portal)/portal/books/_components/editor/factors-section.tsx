'use client';

import { memo, useId } from 'react';
import { addOption, moveItem } from '../../_lib/book-edits';
import { fromFactorForm, toFactorForm, type FactorForm, type FactorInput } from '../../_lib/book-form';
import { AddByName, cardState, EditorSection, issuesAt, ItemActions, keysOf, NamedCard, sameCardProps, TextField, type CardListProps, type CardProps } from './fields';
import styles from './editor.module.css';

type FactorCardProps = CardProps<FactorInput> & {
  factor: FactorInput;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemoveOption: (index: number, optionId: string) => void;
};

const ASK_AGAIN = '';

const FactorCard = memo(
  function FactorCard({ factor, index, count, issues, revealed, disabled, onChange, onMove, onRemove, onRemoveOption }: FactorCardProps) {
    const id = useId();
    const form = toFactorForm(factor);
    const path = `factors.${index}`;
    const set = (change: Partial<FactorForm>, field: string) => onChange(index, fromFactorForm({ ...form, ...change }), `${path}.${field}`);
    const optionKeys = keysOf(form.options.map((o) => o.id));
    const unknownProblems = issuesAt(issues, `${path}.whenUnknown.optionId`);
    const moveOption = (from: number, to: number) => set({ options: moveItem(form.options, from, to) }, 'options');
    return (
      <NamedCard
        path={path}
        revealed={revealed}
        name={form.label || 'Untitled question'}
        actions={<ItemActions name={`question ${form.label || index + 1}`} index={index} count={count} disabled={disabled} onMove={(to) => onMove(index, to)} onRemove={() => onRemove(index)} />}
      >
        <div className={styles.fields}>
          <TextField label="Question" path={`${path}.label`} issues={issues} disabled={disabled} value={form.label} onChange={(label) => set({ label }, 'label')} />
          <div className="field">
            <label htmlFor={`${id}-unknown`}>If the customer is not sure</label>
            <select
              id={`${id}-unknown`}
              disabled={disabled}
              data-path={`${path}.whenUnknown`}
              aria-invalid={unknownProblems.length > 0 || undefined}
              value={form.unknown.action === 'assume' ? form.unknown.optionId : ASK_AGAIN}
              onChange={(e) => set({ unknown: e.target.value === ASK_AGAIN ? { action: 'requireInput' } : { action: 'assume', optionId: e.target.value } }, 'whenUnknown')}
            >
              <option value={ASK_AGAIN}>Ask for an answer before pricing</option>
              {form.options.map((o) => (
                <option key={o.id} value={o.id}>
                  Price as “{o.label}”
                </option>
              ))}
            </select>
            {unknownProblems.length > 0 && <p className="field-error">{unknownProblems.join('; ')}</p>}
          </div>
        </div>
        <label style={{ fontWeight: 400, display: 'inline-flex', gap: '0.4rem', alignItems: 'center' }}>
          <input type="checkbox" checked={form.required} disabled={disabled} data-path={`${path}.required`} onChange={(e) => set({ required: e.target.checked }, 'required')} />
          Must be answered (otherwise an unanswered question is simply left out)
        </label>
        <table className={styles.options} aria-label={`Answers to ${form.label || 'this question'}`} data-path={`${path}.options`}>
          <thead>
            <tr>
              <th>Answer</th>
              <th>Needs a site visit</th>
              <th>
                <span className="sr-only">Order and removal</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {form.options.map((option, i) => {
              const problems = issuesAt(issues, `${path}.options.${i}.label`);
              return (
                <tr key={optionKeys[i]}>
                  <td>
                    <label htmlFor={`${id}-option-${i}`} className="sr-only">
                      Answer {i + 1} of {form.label}
                    </label>
                    <input
                      id={`${id}-option-${i}`}
                      type="text"
                      value={option.label}
                      disabled={disabled}
                      data-path={`${path}.options.${i}.label`}
                      aria-invalid={problems.length > 0 || undefined}
                      onChange={(e) => set({ options: form.options.map((o, j) => (j === i ? { ...o, label: e.target.value } : o)) }, `options.${i}.label`)}
                    />
                    {problems.length > 0 && <p className="field-error">{problems.join('; ')}</p>}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`“${option.label}” needs a site visit`}
                      checked={option.requiresInspection ?? false}
                      disabled={disabled}
                      onChange={(e) => set({ options: form.options.map((o, j) => (j === i ? { ...o, requiresInspection: e.target.checked } : o)) }, `options.${i}.requiresInspection`)}
                    />
                  </td>
                  <td>
                    <ItemActions
                      name={`answer “${option.label}”`}
                      index={i}
                      count={form.options.length}
                      disabled={disabled}
                      onMove={(to) => moveOption(i, to)}
                      onRemove={form.options.length > 1 ? () => onRemoveOption(index, option.id) : undefined}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <AddByName
          label={`New answer to ${form.label}`}
          placeholder="New answer"
          button="Add answer"
          disabled={disabled}
          style={{ marginTop: '0.5rem' }}
          onAdd={(answer) => onChange(index, addOption(fromFactorForm(form), answer), `${path}.options`)}
        />
      </NamedCard>
    );
  },
  sameCardProps,
);

export function FactorsSection({ factors, onAdd, issuesOf, revealedPath, ...shared }: CardListProps &
  Pick<FactorCardProps, 'onChange' | 'onMove' | 'onRemove' | 'onRemoveOption'> & {
    factors: readonly FactorInput[];
    onAdd: (label: string) => void;
  }) {
  const keys = keysOf(factors.map((f) => f.id));
  return (
    <EditorSection title="Questions" intro="What a customer answers, such as home size. Offerings choose which they ask; rules use the answers.">
      {factors.length === 0 && <p className="muted">No questions yet.</p>}
      {factors.map((factor, index) => (
        <FactorCard key={keys[index]} {...shared} {...cardState({ issuesOf, revealedPath }, `factors.${index}`)} factor={factor} index={index} count={factors.length} />
      ))}
      <AddByName label="A new question" placeholder="New question, e.g. Home size" button="Add question" disabled={shared.disabled} onAdd={onAdd} />
    </EditorSection>
  );
}
