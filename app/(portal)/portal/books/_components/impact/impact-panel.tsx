'use client';

import dynamic from 'next/dynamic';
import { IntentLink } from '../../../../../_components/intent-link';
import { dequal } from 'dequal/lite';
import { useId, useMemo, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import { SelectField } from '../../../../_components/form-fields';
import { num, TableHead } from '../../../../_components/table-head';
import { ErrorMessage } from '../../../../_components/ui';
import { signedMoney } from '@/lib/pricing/format-money';
import { stepChangeWords } from './difference-words';
import { GuardNote, ImpactCounts, ImpactProgress, ImpactScope, WINDOW_LABEL } from './impact-figures';
import styles from './impact.module.css';
import { useImpactRun, type Impact, type ImpactRequestBody } from './use-impact-run';
import { AskAnAdmin } from '../../../../_components/ask-an-admin';

/** Movers shown before "Show all": enough to see the pattern without a wall of rows. */
const MOVERS_AT_FIRST = 8;

// recharts loads when a measurement is shown, not with the book page; its box keeps its height meanwhile.
const ImpactChart = dynamic(() => import('./impact-chart').then((m) => m.ImpactChart), { ssr: false, loading: () => <div style={{ height: 240 }} /> });

type Choice = { id: string; label: string };

/** The windows as the window picker offers them: "The last 7 days". */
const WINDOW_CHOICES = Object.entries(WINDOW_LABEL).map(([id, label]) => ({ id, label: label[0].toUpperCase() + label.slice(1) }));

/**
 * "What would this draft do to real prices?": re-prices the book's recent quote requests with
 * the draft as it stands (unsaved edits too) and shows what moves, how much, and why.
 */
export function ImpactPanel({
  bookId,
  artifact,
  checking,
  problems,
  canPublish,
  offerings,
  factors,
}: {
  bookId: string;
  /** The draft when it can price; null while it has problems. */
  artifact: unknown;
  /** The newest edits are still being checked: `artifact` is a draft a few keystrokes older. */
  checking: boolean;
  problems: number;
  canPublish: boolean;
  offerings: Choice[];
  factors: Choice[];
}) {
  const id = useId();
  const [environment, setEnvironment] = useState<'live' | 'test'>('live');
  const [window, setWindow] = useState<ImpactRequestBody['window']>('7d');
  const [offeringId, setOfferingId] = useState('');
  const { state, run } = useImpactRun(bookId);
  const [measuredDraft, setMeasuredDraft] = useState<unknown>(null);

  // Measuring waits for the check to reach the newest edits, so the figures are for the draft as typed.
  const canMeasure = artifact !== null && !checking;
  const measure = () => {
    if (!canMeasure) return;
    setMeasuredDraft(artifact);
    void run({ artifact, environment, window, ...(offeringId ? { offeringId } : {}) });
  };
  const result = state.status === 'done' ? state.result : null;
  // Edits share what they leave unchanged, so this compares little; undoing an edit is not stale.
  const stale = useMemo(() => result !== null && !dequal(measuredDraft, artifact), [result, measuredDraft, artifact]);

  return (
    <section aria-labelledby={`${id}-heading`} className="card" style={{ marginTop: '1.5rem' }} data-testid="impact-panel">
      <h2 id={`${id}-heading`} style={{ marginTop: 0 }}>
        Impact on recent quotes
      </h2>
      <p className="muted" style={{ marginTop: 0 }}>
        Before you publish: the real quote requests of a recent window, priced again with this draft and compared with what customers were quoted.
      </p>
      {!canPublish ? (
        <p className="notice">
          Measuring the impact is for workspace members allowed to publish price books. <AskAnAdmin />
        </p>
      ) : (
        <>
          <form
            className={styles.controls}
            onSubmit={(event) => {
              event.preventDefault();
              measure();
            }}
          >
            <SelectField id={`${id}-environment`} label="Quotes from" value={environment} onChange={(e) => setEnvironment(e.target.value as 'live' | 'test')}>
              <option value="live">Live (customers)</option>
              <option value="test">Test</option>
            </SelectField>
            <SelectField id={`${id}-window`} label="Window" value={window} onChange={(e) => setWindow(e.target.value as ImpactRequestBody['window'])} choices={WINDOW_CHOICES} />
            <SelectField id={`${id}-offering`} label="Offering" value={offeringId} onChange={(e) => setOfferingId(e.target.value)} any="All offerings" choices={offerings} />
            <button type="submit" className="primary" disabled={!canMeasure || state.status === 'running'}>
              {state.status === 'running' ? 'Measuring…' : result ? 'Measure again' : 'Measure impact'}
            </button>
          </form>
          {artifact === null && (
            <p className="warning" role="status">
              {problems === 1 ? 'The draft has a problem' : `The draft has ${problems} problems`} (listed above), so it cannot price yet: fix{' '}
              {problems === 1 ? 'it' : 'them'} to measure the impact.
            </p>
          )}
          {state.status === 'running' && <ImpactProgress progress={state.progress} />}
          {state.status === 'error' && <ErrorMessage error={state.error} />}
          {result && !result.valid && (
            <p className="warning" role="status">
              The draft that was measured has problems, so it cannot price: fix them and measure again.
            </p>
          )}
          {result?.impact && state.status === 'done' && (
            <div aria-live="polite">
              {stale && (
                <p className={`notice ${styles.stale}`}>
                  The draft changed since these figures were measured.{' '}
                  <button type="button" onClick={measure} disabled={!canMeasure}>
                    Measure the current draft
                  </button>
                </p>
              )}
              <ImpactResultView impact={result.impact} window={state.request.window} factors={factors} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

function ImpactResultView({ impact, window, factors }: { impact: Impact; window: ImpactRequestBody['window']; factors: Choice[] }) {
  const [allMovers, setAllMovers] = useState(false);
  if (impact.quotes === 0) {
    return (
      <p className="muted" data-testid="impact-empty">
        No quotes in {impact.environment === 'live' ? 'Live' : 'Test'} in {WINDOW_LABEL[window]}
        {impact.offeringId ? ' for this offering' : ''}, so there is nothing to compare yet. Try a longer window
        {impact.environment === 'live' ? ', or Test' : ''}.
      </p>
    );
  }
  const currency = impact.candidate.currency;
  const pricedBoth = impact.histogram.reduce((sum, b) => sum + b.quotes, 0);
  return (
    <>
      <ImpactScope impact={impact} window={window} />
      <ImpactCounts impact={impact} />
      <GuardNote impact={impact} />
      <h3>How prices move</h3>
      <ImpactChart histogram={impact.histogram} caption={`Quotes priced before and after (${pricedBoth.toLocaleString()}), by change in price.`} />

      <h3>By offering</h3>
      <div className={styles.scroll}>
        <table className="cards" aria-label="Impact by offering">
          <TableHead columns={['Offering', num('Quotes'), num('Changed'), num('Mean change'), num('Median change'), num('Quoted before'), num('Quoted after')]} />
          <tbody>
            {impact.offerings.map((o) => (
              <tr key={o.offeringId}>
                <td data-label="Offering">{o.label}</td>
                <td data-label="Quotes" className="num">{o.quotes.toLocaleString()}</td>
                <td data-label="Changed" className="num">{o.changedQuotes.toLocaleString()}</td>
                <td data-label="Mean change" className="num">{percent(o.meanChangePercent)}</td>
                <td data-label="Median change" className="num">{percent(o.medianChangePercent)}</td>
                <td data-label="Quoted before" className="num">{formatMoney(o.totalBeforeMinor, currency)}</td>
                <td data-label="Quoted after" className="num">
                  {formatMoney(o.totalAfterMinor, currency)}
                  {o.totalAfterMinor !== o.totalBeforeMinor && (
                    <div className="muted" style={{ fontSize: '0.8rem' }}>
                      {signedMoney(o.totalAfterMinor - o.totalBeforeMinor, currency)}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>Largest movers</h3>
      {impact.movers.length === 0 ? (
        <p className="muted" data-testid="impact-no-movers">
          No quote changes price: every request gets the price it got.
        </p>
      ) : (
        <div className={styles.scroll}>
          <table aria-label="Largest movers">
            <TableHead columns={['Request', num('Quotes'), 'Price', 'Why', 'Trace']} />
            <tbody>
              {impact.movers.slice(0, allMovers ? undefined : MOVERS_AT_FIRST).map((m) => (
                <tr key={m.quoteIntentId} data-testid="impact-mover">
                  <td>
                    <strong>{m.offeringLabel}</strong>
                    <ul className={styles.answers}>
                      {m.answers.map((a) => (
                        <li key={a.factorId}>
                          {a.factor}: {a.option ?? 'not sure'}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="num">{m.quotes.toLocaleString()}</td>
                  <td>
                    <MoverPrice mover={m} currency={currency} factors={factors} />
                  </td>
                  <td>
                    {m.differences.length > 0 ? (
                      <ul className={styles.why}>
                        {m.differences.map((d) => (
                          <li key={`${d.phase}-${d.ruleId ?? 'base'}`}>
                            <DifferenceWords difference={d} currency={currency} />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="muted">{m.after.failure?.message ?? (m.after.missingInputs.length > 0 ? 'The draft needs answers these customers did not give.' : '—')}</span>
                    )}
                  </td>
                  <td>
                    {/* A new tab: the draft being edited here stays as it is. */}
                    <IntentLink
                      href={`/portal/traces/${m.quoteIntentId}`}
                      target="_blank"
                      rel="noopener"
                      aria-label={`Trace of the newest ${m.offeringLabel} quote with these answers (opens in a new tab)`}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      Trace ↗
                    </IntentLink>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {impact.movers.length > MOVERS_AT_FIRST && (
            <button type="button" onClick={() => setAllMovers(!allMovers)} aria-expanded={allMovers} style={{ marginTop: '0.5rem' }}>
              {allMovers ? `Show the first ${MOVERS_AT_FIRST}` : `Show all ${impact.movers.length} movers`}
            </button>
          )}
        </div>
      )}
    </>
  );
}

function MoverPrice({ mover, currency, factors }: { mover: Impact['movers'][number]; currency: string; factors: Choice[] }) {
  const before = mover.before.totalMinor === null ? 'no price' : formatMoney(mover.before.totalMinor, currency);
  const after =
    mover.after.totalMinor !== null
      ? formatMoney(mover.after.totalMinor, currency)
      : mover.after.outcome === 'requires_input'
        ? `needs ${mover.after.missingInputs.map((path) => factorLabel(path, factors)).join(', ')}`
        : 'fails';
  return (
    <span>
      {before} → <strong>{after}</strong>
      {mover.changePercent !== null && <span className="muted"> ({mover.changePercent > 0 ? '+' : ''}{mover.changePercent}%)</span>}
    </span>
  );
}

function factorLabel(path: string, factors: Choice[]): string {
  const factorId = path.replace(/^factors\./, '');
  return factors.find((f) => f.id === factorId)?.label ?? factorId;
}

/** "Larger home +$30.00 → +$48.00", "Weekend surcharge (new rule) +$20.00", "Old fee (removed) was +$5.00". */
function DifferenceWords({ difference: d, currency }: { difference: Impact['movers'][number]['differences'][number]; currency: string }) {
  return (
    <>
      {d.label}
      {d.before === null ? ' (new rule)' : d.after === null ? ' (removed)' : ''} <span style={{ whiteSpace: 'nowrap' }}>{stepChangeWords(d, currency)}</span>
    </>
  );
}

function percent(value: number | null): string {
  return value === null ? '—' : `${value > 0 ? '+' : ''}${value}%`;
}
