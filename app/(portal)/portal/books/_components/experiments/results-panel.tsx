'use client';

import { useId, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import { ConfirmDialog } from '../../../../_components/confirm-dialog';
import { num, TableHead } from '../../../../_components/table-head';
import { ENVIRONMENT_LABEL, ErrorMessage, formatTime, Loading } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import { PublishLiveDialog, type LivePublishRequest } from '../impact/publish-live-dialog';
import { useExperimentResults, usePromote, usePromoteAvailable, type ArmComparison, type Experiment, type ExperimentResults } from './experiment-queries';
import { armLetter, armVersion, dateWords, inLetters, metricName } from './experiment-words';
import styles from './experiments.module.css';

const percentOf = (fraction: number) => `${fraction > 0 ? '+' : ''}${(fraction * 100).toLocaleString(undefined, { maximumFractionDigits: 1 })}%`;
/** The results' metric and a comparison's are the same one (the experiment says `committed_revenue`, the statistics `…_per_quote`). */
const sameMetric = (a: string, b: string) => a === b || a.startsWith(b) || b.startsWith(a);

/** How the experiment is doing: the primary metric's sentence, its intervals, each arm's figures. */
export function ResultsPanel({ book, experiment, canPublish }: { book: BookDetail; experiment: Experiment; canPublish: boolean }) {
  const id = useId();
  const results = useExperimentResults(book.id, experiment);
  return (
    <section aria-labelledby={`${id}-heading`} className="card" data-testid="experiment-results">
      <h2 id={`${id}-heading`}>Results</h2>
      {experiment.state === 'draft' ? (
        <p className="muted">Results appear once the experiment is started and quotes are priced in it.</p>
      ) : results.isPending ? (
        <Loading what="the results" />
      ) : results.isError ? (
        <ErrorMessage error={results.error} />
      ) : results.data === null || results.data.arms.every((a) => a.quotes === 0) ? (
        <p className="muted" data-testid="results-empty">
          Results appear once quotes are priced in this experiment.
          {experiment.state === 'running' ? ' This page looks again every minute.' : ''}
        </p>
      ) : (
        <ResultsView book={book} experiment={experiment} results={results.data} canPublish={canPublish} />
      )}
    </section>
  );
}

function ResultsView({ book, experiment, results, canPublish }: { book: BookDetail; experiment: Experiment; results: ExperimentResults; canPublish: boolean }) {
  const primary = results.comparisons.filter((c) => sameMetric(c.metric, results.metric));
  const secondary = results.comparisons.filter((c) => !sameMetric(c.metric, results.metric));
  const armOf = (name: string) => experiment.arms.find((a) => a.name === name);
  const title = (name: string) => {
    const arm = armOf(name);
    return `${armLetter(name)}${name === 'control' ? ' · control' : ''}${arm ? ` (${armVersion(book, experiment, arm)})` : ''}`;
  };
  // Stopped or concluded: no new quote joins it; acceptances of its quotes still count as they come.
  const ended = experiment.state === 'stopped' || experiment.state === 'concluded';
  const endedAt = experiment.concludedAt ?? experiment.stoppedAt;

  return (
    <>
      <p className="muted" style={{ marginTop: 0 }}>
        Judged by <strong>{metricName(results.metric)}</strong>, compared with A, the control. Figures as of {formatTime(results.asOf)}.
        {ended && ` The experiment ended on ${dateWords(endedAt)}: these are the quotes it gave, with their acceptances so far.`}
      </p>
      <div aria-live="polite" data-testid="results-headline">
        {primary.map((c) => (
          <p key={c.arm} className={styles.headline}>
            {/* The service's sentence says how many more quotes it needs; once ended, there will be none. */}
            {inLetters(c.sentence)}
            {c.verdict === 'not_enough_data' && ended && (
              <span className="muted" style={{ display: 'block', fontSize: '0.9rem', fontWeight: 400 }}>
                It ended before there were enough quotes to tell: read the figures below as a hint, not a result.
              </span>
            )}
          </p>
        ))}
      </div>
      <IntervalChart comparisons={primary} title={title} />

      <h3>Each version’s figures</h3>
      <table className="cards" aria-label="Figures per version">
        <TableHead
          columns={['Version', num('Quotes'), num('Accepted'), num('Committed'), num('Won'), num('Revenue per quote'), num('Acceptance rate'), num('Average price')]}
        />
        <tbody>
          {results.arms.map((a) => (
            <tr key={a.name}>
              <td data-label="Version">
                <strong>{title(a.name)}</strong>
                {armOf(a.name)?.pausedAt && ' · paused'}
                {experiment.winner?.arm === a.name && ' · winner'}
              </td>
              <td data-label="Quotes" className="num">
                {a.quotes.toLocaleString()}
              </td>
              <td data-label="Accepted" className="num">
                {a.acceptances.toLocaleString()}
              </td>
              <td data-label="Committed" className="num">
                {a.commitments.toLocaleString()}
              </td>
              <td data-label="Won" className="num">
                {a.wonLeads.toLocaleString()}
              </td>
              <td data-label="Rev./quote" className="num">
                {a.revenuePerQuoteMinor === null || a.currency === null ? '—' : formatMoney(Math.round(a.revenuePerQuoteMinor), a.currency)}
              </td>
              <td data-label="Accept rate" className="num">
                {a.acceptanceRate === null ? '—' : `${(a.acceptanceRate * 100).toLocaleString(undefined, { maximumFractionDigits: 1 })}%`}
              </td>
              <td data-label="Avg. price" className="num">
                {a.averagePriceMinor === null || a.currency === null ? '—' : formatMoney(Math.round(a.averagePriceMinor), a.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {secondary.length > 0 && (
        <>
          <h3>Other measures</h3>
          <ul className={styles.secondary}>
            {secondary.map((c) => (
              <li key={`${c.arm}-${c.metric}`}>
                {metricName(c.metric)}: {inLetters(c.sentence)}
              </li>
            ))}
          </ul>
        </>
      )}
      {canPublish && (experiment.state === 'running' || experiment.state === 'stopped') && (
        <Promote book={book} experiment={experiment} title={title} />
      )}
    </>
  );
}

/**
 * Each variant's difference from the control, in percent, with its interval around 0: left of
 * the line is less than A, right of it more. Drawn with boxes (no chart library); the sentences
 * above say the same in words, so it is hidden from screen readers.
 */
function IntervalChart({ comparisons, title }: { comparisons: ArmComparison[]; title: (arm: string) => string }) {
  const shown = comparisons.filter((c): c is ArmComparison & { relative: NonNullable<ArmComparison['relative']> } => c.relative !== null);
  if (shown.length === 0) return null;
  const reach = Math.max(0.05, ...shown.flatMap((c) => [Math.abs(c.relative.lower), Math.abs(c.relative.upper)])) * 1.1;
  const at = (fraction: number) => `${((fraction + reach) / (2 * reach)) * 100}%`;
  return (
    <figure className={styles.chart} data-testid="interval-chart">
      <div aria-hidden="true">
        {shown.map((c) => (
          <div key={c.arm} className={styles.chartRow}>
            <strong>{armLetter(c.arm)}</strong>
            <div className={styles.track} title={`${percentOf(c.relative.estimate)} (between ${percentOf(c.relative.lower)} and ${percentOf(c.relative.upper)})`}>
              <span className={styles.zero} style={{ left: at(0) }} />
              <span
                className={`${styles.range} ${c.verdict === 'better' ? styles.better : c.verdict === 'worse' ? styles.worse : ''}`}
                style={{ left: at(c.relative.lower), width: `calc(${at(c.relative.upper)} - ${at(c.relative.lower)})` }}
              />
              <span className={styles.dot} style={{ left: at(c.relative.estimate) }} />
            </div>
          </div>
        ))}
        <div className={styles.chartRow}>
          <span />
          <div className={styles.axisLine}>
            <span>{percentOf(-reach)}</span>
            <span>0 (same as A)</span>
            <span>{percentOf(reach)}</span>
          </div>
        </div>
      </div>
      <figcaption className="muted" style={{ fontSize: '0.85rem' }}>
        Each version against A: the dot is the best estimate, the bar where the difference lies with 95% confidence. A bar clear of the line is a real
        difference.
      </figcaption>
      <ul className="sr-only">
        {shown.map((c) => (
          <li key={c.arm}>
            {title(c.arm)}: {percentOf(c.relative.estimate)}, between {percentOf(c.relative.lower)} and {percentOf(c.relative.upper)}
          </li>
        ))}
      </ul>
    </figure>
  );
}

type PromoteRequest = { arm: string; versionId: string; number: number };

/**
 * Make a variant the publication (POST …/promote): in Live behind the same safeguard as publishing
 * a version (its impact, and the phrase when the change is large); in Test after one question.
 * Shown only where the service has the route.
 */
function Promote({ book, experiment, title }: { book: BookDetail; experiment: Experiment; title: (arm: string) => string }) {
  const available = usePromoteAvailable(book.id, experiment.id, true);
  const promote = usePromote(book.id, experiment.id);
  const [request, setRequest] = useState<PromoteRequest | null>(null);
  const [keepingControl, setKeepingControl] = useState(false);
  if (!available.data) return null;
  const control = experiment.arms.find((a) => a.name === 'control');
  const env = ENVIRONMENT_LABEL[experiment.environment];
  const variants = experiment.arms.flatMap((a) => {
    const number = book.versions.find((v) => v.id === a.versionId)?.number;
    return a.name !== 'control' && a.versionId && number !== undefined ? [{ arm: a.name, versionId: a.versionId, number }] : [];
  });
  const send = (r: PromoteRequest, shown: { impactAsOf?: string; confirmation?: string } = {}) => {
    setRequest(null);
    // On success the experiment is concluded and this goes away: the outcome above says what happened.
    promote.mutate({ arm: r.arm, ...shown });
  };
  const liveRequest: LivePublishRequest | null = experiment.environment === 'live' && request ? { versionId: request.versionId, number: request.number } : null;

  return (
    <>
      <h3>Keep a version</h3>
      <p className="muted">
        Publish the version that did best to {env}, and every customer gets its prices; or keep A, and nothing is published. Either way the experiment
        ends.
      </p>
      <div className={styles.actions}>
        {variants.map((v) => (
          <button key={v.arm} type="button" onClick={() => setRequest(v)} disabled={promote.isPending}>
            {promote.isPending && promote.variables?.arm === v.arm ? `Publishing ${title(v.arm)}…` : `Publish ${title(v.arm)} to ${env}…`}
          </button>
        ))}
        {control && (
          <button type="button" onClick={() => setKeepingControl(true)} disabled={promote.isPending}>
            {promote.isPending && promote.variables?.arm === 'control' ? 'Ending…' : `Keep ${title('control')} and end…`}
          </button>
        )}
      </div>
      <div aria-live="polite">
        {promote.isError && <ErrorMessage error={promote.error} />}
      </div>
      <PublishLiveDialog
        bookId={book.id}
        request={liveRequest}
        liveNumber={book.publications.live?.number}
        onCancel={() => setRequest(null)}
        onPublish={(shown) => request && send(request, { impactAsOf: shown.impactAsOf, confirmation: shown.confirmation })}
      />
      <ConfirmDialog
        open={experiment.environment === 'test' && request !== null}
        title={`Publish version ${request?.number ?? ''} to Test?`}
        confirmLabel={`Publish v${request?.number ?? ''} to Test`}
        onCancel={() => setRequest(null)}
        onConfirm={() => request && send(request)}
      >
        <p>Every Test quote is priced with version {request?.number} from now on, and the experiment ends.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={keepingControl}
        title={`Keep A and end “${experiment.name}”?`}
        confirmLabel="Keep A and end"
        onCancel={() => setKeepingControl(false)}
        onConfirm={() => {
          setKeepingControl(false);
          promote.mutate({ arm: 'control' });
        }}
      >
        <p>
          Nothing is published: every new quote in {env} is priced with {env}’s publication
          {book.publications[experiment.environment] ? ` (version ${book.publications[experiment.environment]!.number})` : ''}. Quotes already given keep their
          price, and the results stay here.
        </p>
      </ConfirmDialog>
    </>
  );
}
