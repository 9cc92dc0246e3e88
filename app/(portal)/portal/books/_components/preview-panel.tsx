'use client';

import { useId, useState } from 'react';
import { PriceWaterfall, ReceiptSummary } from '@/app/_components/receipt-view';
import type { QuoteComputation } from '@/lib/pricing/evaluate';
import { ErrorMessage } from '../../../_components/ui';
import type { ReadJsonResult } from '../_lib/json-source';
import { previewOfferings, type PreviewOffering } from '../_lib/preview-questions';
import { usePreview, type PreviewResult } from './book-queries';
import styles from './books.module.css';
import { IssueList } from './issue-list';

/** The select's value for an answer of "unknown" (sent as null); option ids never are empty. */
const UNKNOWN = '';

/** Prices a quote against the text in the editor, saved or not, without storing anything. */
export function PreviewPanel({
  bookId,
  parsed,
  onRevealPath,
}: {
  bookId: string;
  parsed: ReadJsonResult;
  onRevealPath: (path: string) => void;
}) {
  const id = useId();
  const preview = usePreview(bookId);
  const offerings = parsed.ok ? previewOfferings(parsed.value) : [];
  const [chosenOfferingId, setOfferingId] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [previewedRequest, setPreviewedRequest] = useState<string | null>(null);
  const offering = offerings.find((o) => o.id === chosenOfferingId) ?? offerings[0];

  const request = offering && parsed.ok ? { artifact: parsed.value, offeringId: offering.id, factors: factorsOf(offering, answers) } : null;
  const requestKey = request ? JSON.stringify(request) : null;
  const run = () => {
    if (!request) return;
    setPreviewedRequest(requestKey);
    preview.mutate(request);
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Preview</h2>
      <div className="card">
        {!parsed.ok ? (
          <p className="muted">Fix the JSON mistake in the draft to preview a price.</p>
        ) : offerings.length === 0 ? (
          <p className="muted">The draft has no offerings to price yet.</p>
        ) : (
          <>
            <p className="muted" style={{ marginTop: 0 }}>
              Prices the text in the editor, including unsaved changes. Nothing is stored and customers see nothing.
            </p>
            <div className="field">
              <label htmlFor={`${id}-offering`}>Offering</label>
              <select id={`${id}-offering`} value={offering.id} onChange={(e) => setOfferingId(e.target.value)}>
                {offerings.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
            <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
              <legend className="sr-only">Answers</legend>
              <div className={styles.questions}>
                {offering.questions.map((q) => (
                  <div key={q.factorId}>
                    <label htmlFor={`${id}-${q.factorId}`}>{q.label}</label>
                    <select
                      id={`${id}-${q.factorId}`}
                      value={answerOf(q.options, answers[q.factorId])}
                      onChange={(e) => setAnswers({ ...answers, [q.factorId]: e.target.value })}
                    >
                      <option value={UNKNOWN}>Unknown</option>
                      {q.options.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </div>
                ))}
              </div>
              {offering.questions.length === 0 && <p className="muted">This offering asks no questions.</p>}
            </fieldset>
            <button type="button" className="primary" onClick={run} disabled={preview.isPending}>
              {preview.isPending ? 'Pricing…' : 'Preview price'}
            </button>
          </>
        )}
        <div aria-live="polite">
          {preview.isError && <ErrorMessage error={preview.error} />}
          {preview.isSuccess && (
            <>
              {previewedRequest !== requestKey && (
                <p className="muted" style={{ marginTop: '1rem' }}>
                  The draft or the answers changed since this preview. Preview again to update it.
                </p>
              )}
              <PreviewOutcome
                result={preview.data}
                offerings={offerings}
                artifact={parsed.ok ? parsed.value : null}
                onRevealPath={onRevealPath}
              />
            </>
          )}
        </div>
      </div>
    </section>
  );
}

function answerOf(options: { id: string }[], answer: string | undefined): string {
  return answer !== undefined && options.some((o) => o.id === answer) ? answer : UNKNOWN;
}

function factorsOf(offering: PreviewOffering, answers: Record<string, string>): Record<string, string | null> {
  return Object.fromEntries(
    offering.questions.map((q) => {
      const answer = answerOf(q.options, answers[q.factorId]);
      return [q.factorId, answer === UNKNOWN ? null : answer];
    }),
  );
}

function PreviewOutcome({
  result,
  offerings,
  artifact,
  onRevealPath,
}: {
  result: PreviewResult;
  offerings: PreviewOffering[];
  artifact: unknown;
  onRevealPath: (path: string) => void;
}) {
  if (!result.valid) {
    return (
      <div className="warning" style={{ marginTop: '1rem' }}>
        <strong>This draft cannot be priced until these problems are fixed.</strong>
        <IssueList issues={result.issues} artifact={artifact} onReveal={onRevealPath} label="Problems that stop the preview" />
      </div>
    );
  }
  if (result.outcome === 'requires_input') {
    const labels = new Map(offerings.flatMap((o) => o.questions).map((q) => [`factors.${q.factorId}`, q.label]));
    const missing = result.missingInputs.map((input) => (input === 'offeringId' ? 'which offering' : (labels.get(input) ?? input)));
    return (
      <p className="warning" style={{ marginTop: '1rem' }} data-testid="preview-missing">
        No price yet: this needs an answer to <strong>{missing.join(', ')}</strong>. These questions have no assumed answer
        for &ldquo;Unknown&rdquo;.
      </p>
    );
  }
  if (result.outcome === 'failed' || !result.computation) {
    return (
      <p className="error" style={{ marginTop: '1rem' }}>
        This could not be priced: {result.failure?.message ?? 'the service gave no reason.'}
      </p>
    );
  }
  // The preview answers the same computation shape as a receipt (lib/books/schemas.ts).
  const computation = result.computation as QuoteComputation;
  return (
    <div style={{ marginTop: '1rem' }} data-testid="preview-receipt">
      <h3>Price</h3>
      <ReceiptSummary computation={computation} />
      <h3>How the price was worked out</h3>
      <PriceWaterfall computation={computation} />
    </div>
  );
}
