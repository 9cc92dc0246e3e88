'use client';

import { memo, useId } from 'react';
import { addOption } from '../../_lib/book-edits';
import { fromFactorForm, toFactorForm, type FactorForm, type FactorInput } from '../../_lib/book-form';
import { AddByName, isRevealed, issuesAt, ItemActions, keysOf, TextField, type Issues } from './fields';
import styles from './editor.module.css';

type FactorCardProps = {
  factor: FactorInput;
  index: number;
  count: number;
  issues: Issues | undefined;
  issueKey: string;
  revealed: boolean;
  disabled: boolean;
  onChange: (index: number, factor: FactorInput, field: string) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
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
    const moveOption = (from: number, to: number) => {
      const options = [...form.options];
      const [moved] = options.splice(from, 1);
      options.splice(to, 0, moved);
      set({ options }, 'options');
    };
    return (
      <article className={styles.entity} aria-labelledby={`${id}-name`} data-path={path} data-revealed={revealed || undefined}>
        <div className={styles.entityHead}>
          <h3 id={`${id}-name`} style={{ margin: 0, fontSize: '1rem' }}>
            {form.label || 'Untitled question'}
          </h3>
          <ItemActions name={`question ${form.label || index + 1}`} index={index} count={count} disabled={disabled} onMove={(to) => onMove(index, to)} onRemove={() => onRemove(index)} />
        </div>
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
      </article>
    );
  },
  (a, b) =>
    a.factor === b.factor &&
    a.index === b.index &&
    a.count === b.count &&
    a.issueKey === b.issueKey &&
    a.revealed === b.revealed &&
    a.disabled === b.disabled &&
    a.onChange === b.onChange &&
    a.onMove === b.onMove &&
    a.onRemove === b.onRemove &&
    a.onRemoveOption === b.onRemoveOption,
);

export function FactorsSection({ factors, issuesOf, revealedPath, disabled, onChange, onMove, onRemove, onRemoveOption, onAdd }: {
  factors: readonly FactorInput[];
  issuesOf: (prefix: string) => { issues: Issues | undefined; key: string };
  revealedPath: string | null;
  disabled: boolean;
  onChange: FactorCardProps['onChange'];
  onMove: FactorCardProps['onMove'];
  onRemove: FactorCardProps['onRemove'];
  onRemoveOption: FactorCardProps['onRemoveOption'];
  onAdd: (label: string) => void;
}) {
  const id = useId();
  const keys = keysOf(factors.map((f) => f.id));
  return (
    <section className={styles.section} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Questions</h2>
      <p className="muted">What a customer answers, such as home size. Offerings choose which they ask; rules use the answers.</p>
      {factors.length === 0 && <p className="muted">No questions yet.</p>}
      {factors.map((factor, index) => {
        const { issues, key } = issuesOf(`factors.${index}`);
        return (
          <FactorCard
            key={keys[index]}
            factor={factor}
            index={index}
            count={factors.length}
            issues={issues}
            issueKey={key}
            revealed={isRevealed(revealedPath, `factors.${index}`)}
            disabled={disabled}
            onChange={onChange}
            onMove={onMove}
            onRemove={onRemove}
            onRemoveOption={onRemoveOption}
          />
        );
      })}
      <AddByName label="A new question" placeholder="New question, e.g. Home size" button="Add question" disabled={disabled} onAdd={onAdd} />
    </section>
  );
}
