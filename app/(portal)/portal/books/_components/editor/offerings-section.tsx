'use client';

import { memo, useId, useState } from 'react';
import { fromOfferingForm, toOfferingForm, type OfferingForm, type OfferingInput } from '../../_lib/book-form';
import { AddByName, AmountField, isRevealed, ItemActions, keysOf, TextField, TextList, type Issues } from './fields';
import styles from './editor.module.css';

export type Choice = { id: string; label: string };

type OfferingCardProps = {
  offering: OfferingInput;
  index: number;
  count: number;
  currency: string;
  factors: readonly Choice[];
  issues: Issues | undefined;
  /** Changes when the card's problems change: cards compare this, not the object. */
  issueKey: string;
  revealed: boolean;
  disabled: boolean;
  onChange: (index: number, offering: OfferingInput, field: string) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
};

const OfferingCard = memo(
  function OfferingCard({ offering, index, count, currency, factors, issues, revealed, disabled, onChange, onMove, onRemove }: OfferingCardProps) {
    const id = useId();
    const form = toOfferingForm(offering, currency);
    const path = `offerings.${index}`;
    const set = (change: Partial<OfferingForm>, field: string) => onChange(index, fromOfferingForm({ ...form, ...change }, currency), `${path}.${field}`);
    const labelOf = (factorId: string) => factors.find((f) => f.id === factorId)?.label ?? `missing question “${factorId}”`;
    const notAsked = factors.filter((f) => !form.factorIds.includes(f.id));
    const [showMore, setShowMore] = useState(Boolean(form.description) || form.conditions.length > 0);
    const moveFactor = (from: number, to: number) => {
      const factorIds = [...form.factorIds];
      const [moved] = factorIds.splice(from, 1);
      factorIds.splice(to, 0, moved);
      set({ factorIds }, 'factorIds');
    };
    return (
      <article className={styles.entity} aria-labelledby={`${id}-name`} data-path={path} data-revealed={revealed || undefined}>
        <div className={styles.entityHead}>
          <h3 id={`${id}-name`} style={{ margin: 0, fontSize: '1rem' }}>
            {form.label || 'Untitled offering'}
          </h3>
          <ItemActions
            name={`offering ${form.label || index + 1}`}
            index={index}
            count={count}
            disabled={disabled}
            onMove={(to) => onMove(index, to)}
            onRemove={count > 1 ? () => onRemove(index) : undefined}
          />
        </div>
        <div className={styles.fields}>
          <TextField label="Name" path={`${path}.label`} issues={issues} disabled={disabled} value={form.label} onChange={(label) => set({ label }, 'label')} />
          <AmountField
            label="Base price"
            path={`${path}.basePriceMinor`}
            issues={issues}
            disabled={disabled}
            currency={currency}
            value={form.basePrice}
            onChange={(basePrice) => set({ basePrice }, 'basePriceMinor')}
          />
        </div>
        <div className="field" data-path={`${path}.factorIds`}>
          <span id={`${id}-asks`} style={{ fontWeight: 600, fontSize: '0.9rem' }}>
            Questions asked, in this order
          </span>
          {form.factorIds.length === 0 ? (
            <p className="muted" style={{ margin: '0.2rem 0' }}>
              None: every customer gets the base price (and rules without conditions).
            </p>
          ) : (
            <ol className={styles.chips} aria-labelledby={`${id}-asks`}>
              {form.factorIds.map((factorId, i) => (
                <li key={factorId}>
                  {labelOf(factorId)}
                  <button type="button" disabled={disabled || i === 0} onClick={() => moveFactor(i, i - 1)} aria-label={`Ask ${labelOf(factorId)} earlier`}>
                    ←
                  </button>
                  <button type="button" disabled={disabled || i === form.factorIds.length - 1} onClick={() => moveFactor(i, i + 1)} aria-label={`Ask ${labelOf(factorId)} later`}>
                    →
                  </button>
                  <button type="button" disabled={disabled} onClick={() => set({ factorIds: form.factorIds.filter((f) => f !== factorId) }, 'factorIds')} aria-label={`Stop asking ${labelOf(factorId)}`}>
                    ×
                  </button>
                </li>
              ))}
            </ol>
          )}
          {notAsked.length > 0 && (
            <div className="row">
              <label htmlFor={`${id}-ask`} className="sr-only">
                Ask also
              </label>
              <select
                id={`${id}-ask`}
                value=""
                disabled={disabled}
                onChange={(e) => e.target.value && set({ factorIds: [...form.factorIds, e.target.value] }, 'factorIds')}
              >
                <option value="">Ask also…</option>
                {notAsked.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        {showMore ? (
          <>
            <TextField
              label="Description"
              path={`${path}.description`}
              issues={issues}
              disabled={disabled}
              multiline
              value={form.description ?? ''}
              onChange={(description) => set({ description: description === '' ? undefined : description }, 'description')}
            />
            <TextList
              legend="Conditions on this offering’s receipts"
              path={`${path}.conditions`}
              items={form.conditions}
              onChange={(conditions) => set({ conditions }, 'conditions')}
              issues={issues}
              disabled={disabled}
              addLabel="Add a condition"
              itemName="Condition"
            />
          </>
        ) : (
          <button type="button" onClick={() => setShowMore(true)}>
            Description and conditions…
          </button>
        )}
      </article>
    );
  },
  (a, b) =>
    a.offering === b.offering &&
    a.index === b.index &&
    a.count === b.count &&
    a.currency === b.currency &&
    a.factors === b.factors &&
    a.issueKey === b.issueKey &&
    a.revealed === b.revealed &&
    a.disabled === b.disabled &&
    a.onChange === b.onChange &&
    a.onMove === b.onMove &&
    a.onRemove === b.onRemove,
);

export function OfferingsSection({ offerings, currency, factors, issuesOf, revealedPath, disabled, onChange, onMove, onRemove, onAdd }: {
  offerings: readonly OfferingInput[];
  currency: string;
  factors: readonly Choice[];
  issuesOf: (prefix: string) => { issues: Issues | undefined; key: string };
  revealedPath: string | null;
  disabled: boolean;
  onChange: OfferingCardProps['onChange'];
  onMove: OfferingCardProps['onMove'];
  onRemove: OfferingCardProps['onRemove'];
  onAdd: (label: string) => void;
}) {
  const id = useId();
  const keys = keysOf(offerings.map((o) => o.id));
  return (
    <section className={styles.section} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Offerings</h2>
      <p className="muted">What customers can ask a price for. Each starts from its base price; the rules below change it.</p>
      {offerings.map((offering, index) => {
        const { issues, key } = issuesOf(`offerings.${index}`);
        return (
          <OfferingCard
            key={keys[index]}
            offering={offering}
            index={index}
            count={offerings.length}
            currency={currency}
            factors={factors}
            issues={issues}
            issueKey={key}
            revealed={isRevealed(revealedPath, `offerings.${index}`)}
            disabled={disabled}
            onChange={onChange}
            onMove={onMove}
            onRemove={onRemove}
          />
        );
      })}
      <AddByName label="Name of a new offering" placeholder="New offering, e.g. Gutter cleaning" button="Add offering" disabled={disabled} onAdd={onAdd} />
    </section>
  );
}
