'use client';

import { IntentLink } from '../../../../../_components/intent-link';
import type { ReactNode } from 'react';
import type { PriceDifference } from '@/lib/experiments/price-guard';
import { formatMoney } from '@/lib/pricing/format-money';
import { ApiError } from '../../../../_components/api';
import { ENVIRONMENT_LABEL, ErrorMessage } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import type { Experiment } from './experiment-queries';
import { armLetter } from './experiment-words';

/**
 * Why the service would not start the experiment (409), in words: the price guardrail's worst
 * case laid out (which answers, both prices, the difference, the limit), or the other refusals
 * told from the page's data, which is read again when a start is refused.
 */
export function StartRefusal({ error, book, experiment, running }: { error: unknown; book: BookDetail; experiment: Experiment; running: Experiment | undefined }) {
  const env = ENVIRONMENT_LABEL[experiment.environment];
  if (!(error instanceof ApiError) || error.code !== 'conflict') return <ErrorMessage error={error} />;
  const difference = priceDifferenceOf(error.details);
  if (difference) return <PriceRefusal book={book} difference={difference} />;
  const said = (text: ReactNode) => (
    <p className="error" role="alert" data-testid="start-refused">
      {text}
    </p>
  );
  if (experiment.state !== 'draft') return said('Someone has already started this experiment: the page now shows it as it is.');
  if (!book.publications[experiment.environment]) {
    return said(`Nothing is published to ${env}, so there is no control to compare with. Publish a version to ${env} first: it becomes A.`);
  }
  if (running) {
    return said(
      <>
        “<IntentLink href={`/portal/books/${book.id}/experiments/${running.id}`}>{running.name}</IntentLink>” is already running in {env}: one experiment runs at a
        time. Stop it first, then start this one.
      </>,
    );
  }
  return <ErrorMessage error={error} />;
}

/** The start's `details.priceDifference`, when the refusal carries one (lib/experiments/price-guard.ts). */
function priceDifferenceOf(details: Record<string, unknown>): PriceDifference | null {
  const found = details.priceDifference as PriceDifference | undefined;
  return found && typeof found.controlPriceMinor === 'number' && typeof found.variantPriceMinor === 'number' && Array.isArray(found.answers) ? found : null;
}

function PriceRefusal({ book, difference: d }: { book: BookDetail; difference: PriceDifference }) {
  const letter = armLetter(d.arm);
  const number = book.versions.find((v) => v.id === d.versionId)?.number;
  const percent = d.differencePercent;
  const by = percent === null ? `a price where A charges nothing` : `${Math.abs(percent).toLocaleString()}% ${percent > 0 ? 'more' : 'less'} than A`;
  const answers = d.answers.map((a) => `${a.factor}: ${a.option ?? 'not answered'}`);
  return (
    <div className="error" role="alert" data-testid="start-refused">
      <p style={{ marginTop: 0 }}>
        <strong>
          Not started: {letter}
          {number !== undefined ? ` (version ${number})` : ''} asks {by}, and this experiment allows at most {d.limitPercent}% either way.
        </strong>
      </p>
      {/* The particulars in the page's ink: red is for the one line that says what went wrong. */}
      <dl className="facts" aria-label="The price that is too far from A’s" style={{ color: 'var(--ink)' }}>
        <dt>Offering</dt>
        <dd>{d.offering}</dd>
        <dt>Answers</dt>
        <dd>
          {answers.length > 0 ? (
            <ul style={{ margin: 0, padding: 0, listStyle: 'none' }}>
              {answers.map((answer) => (
                <li key={answer}>{answer}</li>
              ))}
            </ul>
          ) : (
            'none'
          )}
        </dd>
        <dt>A asks</dt>
        <dd>{formatMoney(d.controlPriceMinor, d.currency)}</dd>
        <dt>{letter} would ask</dt>
        <dd>{formatMoney(d.variantPriceMinor, d.currency)}</dd>
        <dt>Difference</dt>
        <dd>{percent === null ? 'from nothing' : `${percent > 0 ? '+' : '−'}${Math.abs(percent).toLocaleString()}%`}</dd>
        <dt>Allowed</dt>
        <dd>up to {d.limitPercent}% more or less</dd>
      </dl>
      <p style={{ marginBottom: 0, color: 'var(--ink)' }}>
        {d.source === 'recent_quotes' ? 'These answers are from a quote given in the last 30 days.' : 'These answers are an example from the price book (there were few recent quotes to check).'}{' '}
        It is the largest difference found. The experiment is still a draft and nobody’s price changed. To try these prices, create a new experiment with a
        larger allowed difference, or with a version closer to A’s prices.
      </p>
    </div>
  );
}
