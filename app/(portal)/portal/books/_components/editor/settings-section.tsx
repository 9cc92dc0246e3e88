'use client';

import { memo, useId, useMemo } from 'react';
import { DEFAULT_QUOTE_VALIDITY_DAYS } from '@/lib/pricing/limits';
import { ISO_4217_MINOR_UNITS } from '@/lib/pricing/currencies';
import type { Autonomy } from '../../_lib/book-form';
import { EditorSection, issuesAt, TextList, type Issues } from './fields';
import styles from './editor.module.css';

const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'JPY'];

const AUTONOMY: { value: Autonomy; label: string; detail: string }[] = [
  { value: 'autonomous', label: 'Send quotes at once', detail: 'A priced quote goes to the customer straight away (one that needs a site visit waits for review).' },
  { value: 'approval_first', label: 'Review every quote first', detail: 'Every produced quote waits for the owner’s approval before the customer sees it.' },
  { value: 'observe', label: 'Observe only', detail: 'Quotes are priced and recorded, never sent: for trying a book out.' },
];

function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export const SettingsSection = memo(function SettingsSection({
  currency,
  autonomy,
  quoteValidityDays,
  conditions,
  issues,
  disabled,
  onCurrency,
  onAutonomy,
  onQuoteValidityDays,
  onConditions,
}: {
  currency: string;
  autonomy: Autonomy;
  quoteValidityDays: number | undefined;
  conditions: readonly string[];
  issues: Issues | undefined;
  disabled: boolean;
  onCurrency: (currency: string) => void;
  onAutonomy: (autonomy: Autonomy) => void;
  onQuoteValidityDays: (days: number | undefined) => void;
  onConditions: (conditions: string[]) => void;
}) {
  const id = useId();
  const codes = useMemo(() => {
    const all = Object.keys(ISO_4217_MINOR_UNITS);
    return [...COMMON_CURRENCIES, ...all.filter((c) => !COMMON_CURRENCIES.includes(c)).sort()].map((code) => ({ code, name: currencyName(code) }));
  }, []);
  const currencyProblems = issuesAt(issues, 'currency');
  const validityProblems = issuesAt(issues, 'quoteValidityDays');
  return (
    <EditorSection title="Book settings">
      <div className={styles.entity}>
        <div className={styles.fields}>
          <div className="field">
            <label htmlFor={`${id}-currency`}>Currency</label>
            <select
              id={`${id}-currency`}
              value={currency}
              disabled={disabled}
              data-path="currency"
              aria-invalid={currencyProblems.length > 0 || undefined}
              onChange={(e) => onCurrency(e.target.value)}
            >
              {!codes.some((c) => c.code === currency) && <option value={currency}>{currency} (not an ISO 4217 currency)</option>}
              {codes.map(({ code, name }) => (
                <option key={code} value={code}>
                  {code} — {name}
                </option>
              ))}
            </select>
            <span className="hint">Prices keep their values when you change it; amounts are rounded only if the new currency has fewer decimals.</span>
            {currencyProblems.length > 0 && <p className="field-error">{currencyProblems.join('; ')}</p>}
          </div>
        </div>
        <div className={styles.fields}>
          <div className="field">
            <label htmlFor={`${id}-validity`}>Quotes are valid for (days)</label>
            <input
              id={`${id}-validity`}
              type="number"
              inputMode="numeric"
              min={0}
              max={3650}
              step={1}
              value={quoteValidityDays ?? DEFAULT_QUOTE_VALIDITY_DAYS}
              disabled={disabled}
              data-path="quoteValidityDays"
              aria-invalid={validityProblems.length > 0 || undefined}
              aria-describedby={`${id}-validity-hint`}
              onChange={(e) => onQuoteValidityDays(e.target.value === '' ? undefined : Number(e.target.value))}
            />
            <span className="hint" id={`${id}-validity-hint`}>
              A price can be accepted or committed until then; the customer sees the date. 0 means prices never expire.
            </span>
            {validityProblems.length > 0 && <p className="field-error">{validityProblems.join('; ')}</p>}
          </div>
        </div>
        <fieldset className={styles.plain} data-path="autonomy">
          <legend>When the account surface produces a quote</legend>
          {AUTONOMY.map((a) => (
            <label key={a.value} style={{ fontWeight: 400, display: 'flex', gap: '0.5rem', alignItems: 'baseline' }}>
              <input type="radio" name={`${id}-autonomy`} value={a.value} checked={autonomy === a.value} disabled={disabled} onChange={() => onAutonomy(a.value)} />
              <span>
                <strong>{a.label}</strong> <span className="muted">— {a.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <TextList
          legend="Conditions on every receipt"
          path="conditions"
          items={conditions}
          onChange={onConditions}
          issues={issues}
          disabled={disabled}
          addLabel="Add a receipt condition"
          itemName="Receipt condition"
        />
      </div>
    </EditorSection>
  );
});
