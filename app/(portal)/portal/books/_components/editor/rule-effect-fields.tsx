'use client';

import type { EffectForm, RuleForm } from '../../_lib/book-form';
import { AmountField, PercentField, type Issues } from './fields';

// What a rule does, as its editor shows it: the fields of its kind of effect (rules-section.tsx).

/** Where the effect's amount sits in the artifact: validation problems name that path. */
export function effectPath(form: RuleForm): string {
  const effect = form.effect;
  switch (effect.kind) {
    case 'setPrice':
      return 'priceMinor';
    case 'adjust':
      return effect.by === 'amount' ? 'adjustment.amountMinor' : 'adjustment.basisPoints';
    case 'reduce':
      return effect.by === 'amount' ? 'reduction.amountMinor' : 'reduction.basisPoints';
    case 'limit':
      return 'amountMinor';
    case 'deposit':
      return 'depositBasisPoints';
  }
}

/** The fields of the rule's kind of effect (they sit in one row of fields). */
export function EffectFields({ id, form, currency, issues, disabled, path, onEffect }: {
  id: string;
  form: RuleForm;
  currency: string;
  issues: Issues | undefined;
  disabled: boolean;
  path: string;
  onEffect: (effect: EffectForm) => void;
}) {
  const effect = form.effect;
  const valuePath = `${path}.${effectPath(form)}`;
  const sized = { id, valuePath, currency, issues, disabled };
  switch (effect.kind) {
    case 'setPrice':
      return <AmountField label="New base price" path={valuePath} issues={issues} disabled={disabled} currency={currency} value={effect.price} onChange={(price) => onEffect({ ...effect, price })} />;
    case 'adjust':
      return (
        <>
          <div className="field">
            <label htmlFor={`${id}-direction`}>Change</label>
            <select id={`${id}-direction`} value={effect.direction} disabled={disabled} onChange={(e) => onEffect({ ...effect, direction: e.target.value as 'up' | 'down' })}>
              <option value="up">Add (a surcharge)</option>
              <option value="down">Take off (a reduction)</option>
            </select>
          </div>
          <AmountOrPercent {...sized} effect={effect} onEffect={onEffect} amountLabel="Amount" percentLabel="Percentage of the total so far" />
        </>
      );
    case 'reduce':
      return <AmountOrPercent {...sized} effect={effect} onEffect={onEffect} amountLabel="Amount off" percentLabel="Percentage off" />;
    case 'limit':
      return (
        <>
          <div className="field">
            <label htmlFor={`${id}-limit`}>Limit</label>
            <select id={`${id}-limit`} value={effect.limit} disabled={disabled} data-path={`${path}.limit`} onChange={(e) => onEffect({ ...effect, limit: e.target.value as 'minimumTotal' | 'maximumTotal' })}>
              <option value="minimumTotal">Charge at least</option>
              <option value="maximumTotal">Charge at most</option>
            </select>
          </div>
          <AmountField label="Amount" path={valuePath} issues={issues} disabled={disabled} currency={currency} value={effect.amount} onChange={(amount) => onEffect({ ...effect, amount })} />
        </>
      );
    case 'deposit':
      return <PercentField label="Deposit" path={valuePath} issues={issues} disabled={disabled} value={effect.percent} onChange={(percent) => onEffect({ ...effect, percent })} />;
  }
}

/** A surcharge's or a discount's size: by a fixed amount or a percentage, and the field for it. */
function AmountOrPercent<E extends Extract<EffectForm, { by: 'amount' | 'percent' }>>({ id, effect, valuePath, currency, issues, disabled, amountLabel, percentLabel, onEffect }: {
  id: string;
  effect: E;
  valuePath: string;
  currency: string;
  issues: Issues | undefined;
  disabled: boolean;
  amountLabel: string;
  percentLabel: string;
  onEffect: (effect: E) => void;
}) {
  const onValue = (value: string) => onEffect({ ...effect, value });
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-by`}>By</label>
        <select id={`${id}-by`} value={effect.by} disabled={disabled} onChange={(e) => onEffect({ ...effect, by: e.target.value as E['by'], value: e.target.value === 'percent' ? '10' : '0' })}>
          <option value="amount">A fixed amount</option>
          <option value="percent">A percentage</option>
        </select>
      </div>
      {effect.by === 'amount' ? (
        <AmountField label={amountLabel} path={valuePath} issues={issues} disabled={disabled} currency={currency} value={effect.value} onChange={onValue} />
      ) : (
        <PercentField label={percentLabel} path={valuePath} issues={issues} disabled={disabled} value={effect.value} onChange={onValue} />
      )}
    </>
  );
}
