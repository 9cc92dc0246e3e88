'use client';

import { formatMoney } from '@/app/_components/receipt-view';
import { signedMoney } from '@/lib/pricing/format-money';
import type { QuoteComparison } from './use-quote-comparison';
import styles from './comparison.module.css';

type Side = QuoteComparison['a'];

/**
 * One quote's waterfall, step by step with the running total, each step named as people know it;
 * the steps that priced differently in the other quote carry a "differs" label and a tint.
 */
export function ComparedWaterfall({ side, name }: { side: Side; name: 'A' | 'B' }) {
  const currency = side.currency ?? 'USD';
  return (
    <div className="table-scroll">
      <table className="compact" aria-label={`Waterfall of quote ${name}`}>
        <thead>
          <tr>
            <th>#</th>
            <th>Step</th>
            <th className="num">Change</th>
            <th className="num">Running total</th>
          </tr>
        </thead>
        <tbody>
          {side.derivation.map((step) => (
            <tr key={step.sequence} className={step.differs ? styles.differs : step.status === 'skipped' ? styles.skipped : undefined} data-differs={step.differs || undefined}>
              <td>{step.sequence}</td>
              <td>
                {step.label}{' '}
                <span className={`badge ${step.status === 'applied' ? 'live' : ''}`}>{step.status}</span>
                {step.differs && (
                  <>
                    {' '}
                    <span className={styles.marker}>≠ differs</span>
                  </>
                )}
              </td>
              <td className="num">{step.status === 'applied' && step.deltaMinor !== 0 ? signedMoney(step.deltaMinor, currency) : '—'}</td>
              <td className="num">{formatMoney(step.runningTotalMinor, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
