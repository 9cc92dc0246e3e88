import type { ReactNode } from 'react';

/**
 * A table's column heading: its text, or `num(…)` for a column of figures (right-aligned), or
 * `hiddenHeading(…)` for one read by screen readers only (a column of buttons or links).
 * In a `table.cards` (a list that becomes one card per row on a phone) each cell repeats its
 * heading as `data-label`; a cell of actions has none and spans the card.
 */
export type Column = ReactNode | { label: ReactNode; num?: true; hidden?: true };

export const num = (label: ReactNode): Column => ({ label, num: true });
export const hiddenHeading = (label: ReactNode): Column => ({ label, hidden: true });

const isSpec = (column: Column): column is { label: ReactNode; num?: true; hidden?: true } =>
  typeof column === 'object' && column !== null && 'label' in column;

/** A table's `<thead>`: a heading a column, in order; a `false` column (one not shown) is left out. */
export function TableHead({ columns }: { columns: readonly (Column | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => {
          if (column === false) return null;
          const { label, num, hidden } = isSpec(column) ? column : { label: column, num: undefined, hidden: undefined };
          return (
            <th key={i} className={num ? 'num' : undefined}>
              {hidden ? <span className="sr-only">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
