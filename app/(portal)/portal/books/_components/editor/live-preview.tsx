'use client';

import { useId, useMemo, useState } from 'react';
import { formatMoney, PriceWaterfall, ReceiptSummary } from '@/app/_components/receipt-view';
import type { BookArtifactInput, Outcome, QuoteComputation } from '@/lib/pricing';
import type { Example } from '../../_lib/live-check';
import type { PreviewOffering } from '../../_lib/preview-questions';
import { SelectField } from '../../../../_components/form-fields';
import styles from './editor.module.css';

/** The select's value for "not sure" (sent as null); option ids are never empty. */
const NOT_SURE = '';
const UNANSWERED = '\u0000unanswered';

/** An example with every question of its offering answered with the first answer: it prices at once. */
export function firstExample(offerings: readonly PreviewOffering[], key: string, offeringId?: string): Example | null {
  const offering = offerings.find((o) => o.id === offeringId) ?? offerings[0];
  if (!offering) return null;
  return { key, offeringId: offering.id, answers: Object.fromEntries(offering.questions.filter((q) => q.options.length > 0).map((q) => [q.factorId, q.options[0].id])) };
}

function summary(outcome: Outcome | undefined, currency: string | undefined, pending: boolean): string {
  if (!outcome) return pending ? 'Working it out…' : 'Fix the problems listed above to price it';
  if (outcome.outcome === 'succeeded') return currency ? formatMoney(outcome.computation.totalMinor, currency) : String(outcome.computation.totalMinor);
  if (outcome.outcome === 'requires_input') return 'Needs more answers';
  return 'Cannot be priced';
}

/**
 * The preview beside the editor: examples of answers, priced by the engine in the browser as the
 * draft changes (no button, nothing stored), with every step explained in labels.
 */
export function LivePreview({ offerings, priced, examples, outcomes, active, onActive, onExamples, pending, problems }: {
  offerings: readonly PreviewOffering[];
  /** The draft the outcomes were priced with, when it prices. */
  priced: Pick<BookArtifactInput, 'currency' | 'rules'> | null;
  examples: readonly Example[];
  outcomes: readonly (Outcome | undefined)[];
  active: number;
  onActive: (index: number) => void;
  onExamples: (examples: Example[]) => void;
  /** The draft changed and its price is being worked out. */
  pending: boolean;
  /** How many problems stop the draft from pricing. */
  problems: number;
}) {
  const id = useId();
  const currency = priced?.currency;
  const rules = priced?.rules;
  const ruleLabels = useMemo(() => new Map(rules?.map((r) => [r.id, r.label]) ?? []), [rules]);
  const example = examples[active];
  const offering = offerings.find((o) => o.id === example?.offeringId) ?? offerings[0];
  const outcome = outcomes[active];
  const setExample = (change: Partial<Example>) => onExamples(examples.map((e, i) => (i === active ? { ...e, ...change } : e)));

  return (
    <section className="card" aria-labelledby={`${id}-heading`} data-testid="live-preview">
      <h2 id={`${id}-heading`} style={{ marginTop: 0 }}>
        Live preview
      </h2>
      <p className="muted" style={{ marginTop: 0 }}>
        Prices these examples as you edit, unsaved changes included. Nothing is stored; customers see nothing.
      </p>
      {problems > 0 && !priced && (
        <p className="warning" role="status">
          {problems === 1 ? '1 problem stops' : `${problems} problems stop`} the draft from pricing. They are listed above the editor.
        </p>
      )}
      {offerings.length === 0 ? (
        <p className="muted">Add an offering to price an example.</p>
      ) : (
        <>
          <ol style={{ paddingLeft: '1.25rem', margin: '0 0 0.5rem' }} aria-label="Examples">
            {examples.map((e, i) => (
              <li key={e.key}>
                <button type="button" aria-pressed={i === active} onClick={() => onActive(i)} style={{ border: 0, padding: '0.1rem 0.2rem', background: i === active ? '#eef2f6' : 'transparent', textAlign: 'left' }}>
                  {offerings.find((o) => o.id === e.offeringId)?.label ?? e.offeringId}: <strong data-testid="example-total">{summary(outcomes[i], currency, pending)}</strong>
                </button>
              </li>
            ))}
          </ol>
          <div className="row" style={{ marginBottom: '0.5rem' }}>
            <button
              type="button"
              onClick={() => {
                // A copy of the example shown, to vary one answer and compare.
                const next = example ? { ...example, key: `example-${Date.now()}` } : firstExample(offerings, `example-${Date.now()}`);
                if (!next) return;
                onExamples([...examples, next]);
                onActive(examples.length);
              }}
            >
              Add an example like this one
            </button>
            {examples.length > 1 && (
              <button
                type="button"
                className="danger"
                onClick={() => {
                  onExamples(examples.filter((_, i) => i !== active));
                  onActive(Math.max(0, active - 1));
                }}
              >
                Remove this example
              </button>
            )}
          </div>
          {example && offering && (
            <div className={styles.example}>
              <SelectField id={`${id}-offering`} label="Offering" value={offering.id} onChange={(e) => setExample({ offeringId: e.target.value })} choices={offerings} />
              {offering.questions.map((q) => {
                const answer = example.answers[q.factorId];
                const value = answer === undefined ? UNANSWERED : answer === null ? NOT_SURE : answer;
                return (
                  <SelectField
                    key={q.factorId}
                    id={`${id}-${q.factorId}`}
                    label={q.label}
                    value={value}
                    onChange={(e) => {
                      const answers = { ...example.answers };
                      if (e.target.value === UNANSWERED) delete answers[q.factorId];
                      else answers[q.factorId] = e.target.value === NOT_SURE ? null : e.target.value;
                      setExample({ answers });
                    }}
                    choices={q.options}
                  >
                    <option value={UNANSWERED}>No answer</option>
                    <option value={NOT_SURE}>Not sure</option>
                  </SelectField>
                );
              })}
              <div aria-live="polite" aria-busy={pending}>
                {outcome && <ExampleOutcome outcome={outcome} ruleLabels={ruleLabels} offering={offering} pending={pending} />}
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function ExampleOutcome({ outcome, ruleLabels, offering, pending }: { outcome: Outcome; ruleLabels: ReadonlyMap<string, string>; offering: PreviewOffering; pending: boolean }) {
  if (outcome.outcome === 'requires_input') {
    const labels = new Map(offering.questions.map((q) => [`factors.${q.factorId}`, q.label]));
    const missing = outcome.missingInputs.map((input) => labels.get(input) ?? input);
    return (
      <p className="warning" data-testid="preview-missing">
        No price yet: this needs an answer to <strong>{missing.join(', ')}</strong>.
      </p>
    );
  }
  if (outcome.outcome === 'failed') return <p className="error">This could not be priced: {outcome.failure.message}</p>;
  return <PricedExample computation={outcome.computation} ruleLabels={ruleLabels} pending={pending} />;
}

function PricedExample({ computation, ruleLabels, pending }: { computation: QuoteComputation; ruleLabels: ReadonlyMap<string, string>; pending: boolean }) {
  const [showSteps, setShowSteps] = useState(false);
  return (
    <div data-testid="preview-receipt" style={{ opacity: pending ? 0.6 : 1 }}>
      <p className={styles.total} data-testid="preview-total">
        {formatMoney(computation.totalMinor, computation.currency)}
      </p>
      <ReceiptSummary computation={computation} />
      <details open={showSteps} onToggle={(e) => setShowSteps(e.currentTarget.open)}>
        <summary>How the price was worked out</summary>
        {/* A step per rule, a thousand in a big book: drawn only when someone looks. */}
        {showSteps && (
          <div className="table-scroll">
            <PriceWaterfall computation={computation} ruleLabels={ruleLabels} />
          </div>
        )}
      </details>
    </div>
  );
}
