'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { formatMoney } from '@/app/_components/receipt-view';
import { signedMoney } from '@/lib/pricing/format-money';
import { EnvironmentBadge, formatTime } from '../../../_components/ui';
import { ChangeList } from '../../books/_components/version-diff';
import { QUOTE_STATUS } from '../../traces/_components/trace-header';
import { ComparedWaterfall } from './compared-waterfall';
import type { QuoteComparison } from './use-quote-comparison';
import styles from './comparison.module.css';

type Side = QuoteComparison['a'];
type Name = 'A' | 'B';

const PHASE_HEADINGS: Record<QuoteComparison['phases'][number]['phase'], string> = {
  base: 'Base price',
  baseOverride: 'Special base prices',
  scopedModifier: 'Surcharges of the offering',
  conditionalModifier: 'Surcharges for answers',
  discount: 'Discounts',
  guardrail: 'Limits',
  paymentTerms: 'Deposit',
};

const NOT_RECONCILED: Record<NonNullable<QuoteComparison['notReconciled']>, string> = {
  a_not_priced: 'Quote A was not priced, so there are no steps to set against B’s.',
  b_not_priced: 'Quote B was not priced, so there are no steps to set against A’s.',
  neither_priced: 'Neither quote was priced, so there are no steps to compare.',
  currencies_differ: 'The two quotes are priced in different currencies, so their steps cannot be set against each other.',
};

/** Two quotes of one business, B against A: what differs in what was asked, in the book, and step by step in the price. */
export function QuoteComparisonView({ comparison }: { comparison: QuoteComparison }) {
  const { a, b } = comparison;
  return (
    <>
      <div className="grid two">
        <QuoteCard side={a} name="A" />
        <QuoteCard side={b} name="B" />
      </div>

      <section className="card" aria-labelledby="in-short-heading">
        <h2 id="in-short-heading">In short</h2>
        <ul aria-label="Summary" style={{ margin: 0, paddingLeft: '1.25rem' }}>
          {comparison.summary.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
        <ReconciliationLine comparison={comparison} testId="reconciliation" />
      </section>

      <section aria-labelledby="answers-heading">
        <h2 id="answers-heading">Answers that differ</h2>
        <AnswerDifferences answers={comparison.answers} />
      </section>

      <section aria-labelledby="version-heading">
        <h2 id="version-heading">Book version</h2>
        <VersionDifference comparison={comparison} />
      </section>

      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">What made the difference</h2>
        <StepDifferences comparison={comparison} />
      </section>

      <section aria-labelledby="waterfalls-heading">
        <h2 id="waterfalls-heading">Both waterfalls</h2>
        <p className="muted">
          Every step of each price in the order the engine evaluates them. Steps marked <span className={styles.marker}>≠ differs</span> priced
          differently in the other quote.
        </p>
        <div className={styles.sides}>
          {([a, b] as const).map((side, i) => {
            const name: Name = i === 0 ? 'A' : 'B';
            return (
              <div key={name}>
                <h3 style={{ margin: '0 0 0.4rem', fontSize: '1rem' }}>
                  Quote {name}
                  {side.totalMinor !== null && side.currency && <span className="muted"> · {formatMoney(side.totalMinor, side.currency)}</span>}
                </h3>
                {side.derivation.length > 0 ? <ComparedWaterfall side={side} name={name} /> : <p className="muted card">Not priced: no waterfall.</p>}
              </div>
            );
          })}
        </div>
      </section>
    </>
  );
}

function QuoteCard({ side, name }: { side: Side; name: Name }) {
  const status = QUOTE_STATUS[side.status];
  return (
    <section className="card" aria-labelledby={`quote-${name}-heading`}>
      <h2 id={`quote-${name}-heading`}>Quote {name}</h2>
      <div className="row" style={{ marginBottom: '0.5rem' }}>
        <span className={`badge ${status.tone}`}>{status.label}</span>
        <EnvironmentBadge environment={side.environment} />
      </div>
      <dl className="facts" aria-label={`Quote ${name}`}>
        <dt>When</dt>
        <dd>{formatTime(side.createdAt)}</dd>
        <dt>Offering</dt>
        <dd>{side.offeringLabel}</dd>
        <dt>Book version</dt>
        <dd>{side.bookVersion ? `v${side.bookVersion.number}` : <span className="muted">none published</span>}</dd>
        <dt>Price</dt>
        <dd data-testid={`total-${name}`}>
          {side.totalMinor !== null && side.currency ? (
            <strong>{formatMoney(side.totalMinor, side.currency)}</strong>
          ) : side.outcome === 'requires_input' ? (
            'Not priced: needs more answers'
          ) : (
            `Not priced: ${side.failure?.message ?? 'failed'}`
          )}
        </dd>
      </dl>
      <p style={{ marginBottom: 0 }}>
        <IntentLink href={`/portal/traces/${side.quoteIntentId}`} aria-label={`Open the trace of quote ${name}`}>
          Open its trace
        </IntentLink>
      </p>
    </section>
  );
}

/** "Explained: +$20.25 = $175.50 − $155.25": the steps' changes against the difference of the totals. */
function ReconciliationLine({ comparison, testId }: { comparison: QuoteComparison; testId?: string }) {
  const r = comparison.reconciliation;
  if (!r) return null;
  const money = (amount: number) => formatMoney(amount, r.currency);
  return (
    <p className={`notice ${styles.reconciliation}`} style={{ marginBottom: 0 }} data-testid={testId}>
      Explained: <strong>{signedMoney(r.explainedMinor, r.currency)}</strong> = {money(r.totalBMinor)} − {money(r.totalAMinor)}
      {r.explainedMinor === r.differenceMinor ? (
        <span className="muted"> (B − A, exactly)</span>
      ) : (
        <span className="danger-text"> (the difference is {signedMoney(r.differenceMinor, r.currency)})</span>
      )}
    </p>
  );
}

function AnswerDifferences({ answers }: { answers: QuoteComparison['answers'] }) {
  if (answers.length === 0) return <p className="muted card">Both quotes are for the same offering with the same answers.</p>;
  const value = (answer: QuoteComparison['answers'][number]['a']) =>
    answer === null ? <span className="muted">no answer</span> : answer.id === null ? <span className="muted">{answer.label}</span> : answer.label;
  return (
    <div className="table-scroll">
      <table aria-label="Answers that differ">
        <thead>
          <tr>
            <th>Question</th>
            <th>Quote A</th>
            <th>Quote B</th>
          </tr>
        </thead>
        <tbody>
          {answers.map((answer) => (
            <tr key={answer.factorId ?? 'offering'}>
              <th scope="row" style={{ textTransform: 'none', letterSpacing: 0, fontSize: '0.95rem', color: 'inherit' }}>
                {answer.label}
              </th>
              <td>{value(answer.a)}</td>
              <td>{value(answer.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function VersionDifference({ comparison }: { comparison: QuoteComparison }) {
  const { a, b, bookVersion } = comparison;
  if (!a.bookVersion || !b.bookVersion) {
    return <p className="muted card">{!a.bookVersion && !b.bookVersion ? 'Neither quote' : `Quote ${a.bookVersion ? 'B' : 'A'}`} had a published version to price with.</p>;
  }
  if (bookVersion.same) return <p className="muted card">Both quotes were priced with version {a.bookVersion.number} of the book: the book did not change between them.</p>;
  const from = `v${a.bookVersion.number}`;
  const to = `v${b.bookVersion.number}`;
  const currencies = { before: a.currency ?? b.currency ?? 'USD', after: b.currency ?? a.currency ?? 'USD' };
  return (
    <div className="card">
      <p style={{ marginTop: 0 }}>
        Quote A was priced with <strong>{from}</strong> and quote B with <strong>{to}</strong>
        {bookVersion.sameBook ? ' of the book' : ' of another book'}. What changed from {from} to {to}:
      </p>
      {bookVersion.changes && <ChangeList diff={bookVersion.changes} currencies={currencies} title={`Changes from ${from} to ${to}`} />}
    </div>
  );
}

function StepDifferences({ comparison }: { comparison: QuoteComparison }) {
  if (!comparison.reconciliation) return <p className="warning">{NOT_RECONCILED[comparison.notReconciled ?? 'neither_priced']}</p>;
  if (comparison.phases.length === 0) return <p className="muted card">Every step priced the same way in both quotes.</p>;
  return (
    <div className="card">
      {comparison.phases.map((phase) => (
        <div key={phase.phase}>
          <h3 className={styles.phase} id={`phase-${phase.phase}`}>
            {PHASE_HEADINGS[phase.phase]}
          </h3>
          <ul className={styles.steps} aria-labelledby={`phase-${phase.phase}`}>
            {phase.steps.map((step) => (
              <li key={step.ruleId ?? step.label}>{step.sentence}</li>
            ))}
          </ul>
        </div>
      ))}
      <ReconciliationLine comparison={comparison} />
    </div>
  );
}
