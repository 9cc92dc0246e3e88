// How a receipt reads to people: line items, total, deposit and balance, conditions, and the
// derivation as a price waterfall. Shared by the hosted quote page and the portal.
import { formatMoney, signedMoney as signed } from '@/lib/pricing/format-money';
import type { QuoteComputation } from '@/lib/pricing/evaluate';

// Where the portal and the hosted page have always imported it from.
export { formatMoney };

/** A receipt's lines and total; `paymentTerms: false` leaves out the deposit (a price that can no longer be taken up). */
export function ReceiptSummary({ computation, paymentTerms: showTerms = true }: { computation: QuoteComputation; paymentTerms?: boolean }) {
  const { currency, lineItems, totalMinor, paymentTerms, conditions } = computation;
  return (
    <div>
      <table aria-label="Price breakdown">
        <tbody>
          {lineItems.map((item, i) => (
            <tr key={`${item.ruleId ?? 'base'}-${i}`}>
              <td>{item.label}</td>
              <td className="num">{i === 0 ? formatMoney(item.amountMinor, currency) : signed(item.amountMinor, currency)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Total</th>
            <td className="num" data-testid="receipt-total">
              <strong>{formatMoney(totalMinor, currency)}</strong>
            </td>
          </tr>
          {showTerms && paymentTerms.depositMinor > 0 && (
            <>
              <tr>
                <td>Deposit due now ({paymentTerms.depositBasisPoints / 100}%)</td>
                <td className="num" data-testid="receipt-deposit">
                  {formatMoney(paymentTerms.depositMinor, currency)}
                </td>
              </tr>
              <tr>
                <td>Balance</td>
                <td className="num" data-testid="receipt-balance">
                  {formatMoney(paymentTerms.balanceDueMinor, currency)}
                </td>
              </tr>
            </>
          )}
        </tbody>
      </table>
      {conditions.length > 0 && (
        <ul aria-label="Conditions" className="muted" style={{ fontSize: '0.9rem' }}>
          {conditions.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

const PHASE_WORDS: Record<string, string> = {
  base: 'Base price',
  baseOverride: 'Special base price',
  scopedModifier: 'Surcharge',
  conditionalModifier: 'Surcharge',
  discount: 'Discount',
  guardrail: 'Limit',
  paymentTerms: 'Deposit',
};

/**
 * Every step of the evaluation, applied or skipped, with the running total after it. With
 * `ruleLabels` (the book's), steps name their rule as people know it instead of by id.
 */
export function PriceWaterfall({ computation, ruleLabels }: { computation: QuoteComputation; ruleLabels?: ReadonlyMap<string, string> }) {
  const { currency, derivation } = computation;
  const peak = Math.max(1, ...derivation.map((d) => d.runningTotalMinor));
  return (
    <table className="cards" aria-label="Price waterfall">
      <thead>
        <tr>
          <th>#</th>
          <th>Phase</th>
          <th>Rule</th>
          <th>Why</th>
          <th className="num">Change</th>
          <th className="num">Running total</th>
        </tr>
      </thead>
      <tbody>
        {derivation.map((d) => (
          <tr key={d.sequence} style={d.status === 'skipped' ? { color: 'var(--muted)' } : undefined}>
            <td data-label="#">{d.sequence}</td>
            <td data-label="Phase">{ruleLabels ? PHASE_WORDS[d.phase] ?? d.phase : d.phase}</td>
            <td data-label="Rule">
              {d.ruleId === null ? '—' : (ruleLabels?.get(d.ruleId) ?? d.ruleId)}{' '}
              <span className={`badge ${d.status === 'applied' ? 'live' : ''}`}>{d.status}</span>
            </td>
            <td data-label="Why">{d.reason}</td>
            <td className="num" data-label="Change">{d.status === 'applied' && d.deltaMinor !== 0 ? signed(d.deltaMinor, currency) : '—'}</td>
            <td className="num" data-label="Running total">
              <div style={{ display: 'flex', alignItems: 'center', gap: '0.4rem', justifyContent: 'flex-end' }}>
                <span
                  aria-hidden="true"
                  style={{ display: 'inline-block', height: 8, width: `${Math.round((d.runningTotalMinor / peak) * 80)}px`, background: '#93c5fd', borderRadius: 2 }}
                />
                {formatMoney(d.runningTotalMinor, currency)}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
