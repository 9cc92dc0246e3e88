'use client';

import { IntentLink } from '../../_components/intent-link';
import { useState } from 'react';

/** Where two quotes are compared: A is the first picked, B the second (the page can swap them). */
export function comparisonHref(a: string, b: string): string {
  return `/portal/quotes/compare?${new URLSearchParams({ a, b })}`;
}

export type ComparePicks = { picked: readonly string[]; toggle: (id: string) => void; clear: () => void };

/** Two quotes picked from a list, in the order they were picked. */
export function useComparePicks(): ComparePicks {
  const [picked, setPicked] = useState<readonly string[]>([]);
  return {
    picked,
    toggle: (id) => setPicked((now) => (now.includes(id) ? now.filter((p) => p !== id) : now.length < 2 ? [...now, id] : now)),
    clear: () => setPicked([]),
  };
}

/** A row's "Compare" checkbox; once two are picked the others wait until one is unpicked. */
export function CompareCheckbox({ quoteId, picks, describedAs }: { quoteId: string; picks: ComparePicks; describedAs: string }) {
  const checked = picks.picked.includes(quoteId);
  const position = picks.picked.indexOf(quoteId);
  return (
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: '0.3rem', fontWeight: 400, margin: 0, whiteSpace: 'nowrap' }}>
      <input
        type="checkbox"
        checked={checked}
        disabled={!checked && picks.picked.length >= 2}
        onChange={() => picks.toggle(quoteId)}
        aria-label={`Compare ${describedAs}`}
      />
      <span aria-hidden="true">{checked ? (position === 0 ? 'A' : 'B') : 'Compare'}</span>
    </label>
  );
}

/** Says how many quotes are picked, and opens the comparison once there are two. */
export function CompareBar({ picks }: { picks: ComparePicks }) {
  const count = picks.picked.length;
  return (
    <div className="row" role="group" aria-label="Compare two quotes" style={{ margin: '0.5rem 0' }}>
      {count === 2 ? (
        <IntentLink className="button primary" href={comparisonHref(picks.picked[0], picks.picked[1])}>
          Compare
        </IntentLink>
      ) : (
        <button type="button" className="primary" disabled>
          Compare
        </button>
      )}
      <span className="muted" role="status" aria-live="polite">
        {count === 0 ? 'Tick “Compare” on two quotes to see why their prices differ.' : count === 1 ? '1 of 2 quotes picked.' : 'Two quotes picked.'}
      </span>
      {count > 0 && (
        <button type="button" onClick={picks.clear}>
          Clear
        </button>
      )}
    </div>
  );
}
