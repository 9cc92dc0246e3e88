'use client';

import { memo, useId, useState } from 'react';
import { moveItem } from '../../_lib/book-edits';
import { fromOfferingForm, toOfferingForm, type OfferingForm, type OfferingInput } from '../../_lib/book-form';
import { Options } from '../../../../_components/form-fields';
import { AddByName, AmountField, cardState, EditorSection, ItemActions, keysOf, NamedCard, OptionalTextField, sameCardProps, TextField, TextList, type CardListProps, type CardProps } from './fields';
import styles from './editor.module.css';

export type Choice = { id: string; label: string };

type OfferingCardProps = CardProps<OfferingInput> & {
  offering: OfferingInput;
  count: number;
  currency: string;
  factors: readonly Choice[];
  onMove: (from: number, to: number) => void;
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
    const moveFactor = (from: number, to: number) => set({ factorIds: moveItem(form.factorIds, from, to) }, 'factorIds');
    return (
      <NamedCard
        path={path}
        revealed={revealed}
        name={form.label || 'Untitled offering'}
        actions={
          <ItemActions
            name={`offering ${form.label || index + 1}`}
            index={index}
            count={count}
            disabled={disabled}
            onMove={(to) => onMove(index, to)}
            onRemove={count > 1 ? () => onRemove(index) : undefined}
          />
        }
      >
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
                <Options choices={notAsked} />
              </select>
            </div>
          )}
        </div>
        {showMore ? (
          <>
            <OptionalTextField label="Description" path={`${path}.description`} issues={issues} disabled={disabled} value={form.description} onChange={(description) => set({ description }, 'description')} />
            <TextList
              legend="Conditions on this offering’s receipts"
              path={`${path}.conditions`}
              items={form.conditions}
              onChange={(conditions) => set({ conditions }, 'conditions')}
              issues={issues}
              disabled={disabled}
              addLabel="Add a receipt condition"
              itemName="Receipt condition"
            />
          </>
        ) : (
          <button type="button" onClick={() => setShowMore(true)}>
            Description and conditions…
          </button>
        )}
      </NamedCard>
    );
  },
  sameCardProps,
);

export function OfferingsSection({ offerings, onAdd, issuesOf, revealedPath, ...shared }: CardListProps &
  Pick<OfferingCardProps, 'currency' | 'factors' | 'onChange' | 'onMove' | 'onRemove'> & {
    offerings: readonly OfferingInput[];
    onAdd: (label: string) => void;
  }) {
  const keys = keysOf(offerings.map((o) => o.id));
  return (
    <EditorSection title="Offerings" intro="What customers can ask a price for. Each starts from its base price; the rules below change it.">
      {offerings.map((offering, index) => (
        <OfferingCard key={keys[index]} {...shared} {...cardState({ issuesOf, revealedPath }, `offerings.${index}`)} offering={offering} index={index} count={offerings.length} />
      ))}
      <AddByName label="Name of a new offering" placeholder="New offering, e.g. Gutter cleaning" button="Add offering" disabled={shared.disabled} onAdd={onAdd} />
    </EditorSection>
  );
}
