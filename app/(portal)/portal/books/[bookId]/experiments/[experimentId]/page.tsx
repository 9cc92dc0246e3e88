'use client';

import { IntentLink } from '../../../../../../_components/intent-link';
import { useParams } from 'next/navigation';
import { useId } from 'react';
import { TableHead } from '../../../../../_components/table-head';
import { EnvironmentBadge, ErrorMessage, Loading } from '../../../../../_components/ui';
import { useBook, useBookPermissions, useBookVersion, type BookDetail } from '../../../_components/book-queries';
import { ExperimentActions } from '../../../_components/experiments/experiment-actions';
import { useExperiment, type Experiment } from '../../../_components/experiments/experiment-queries';
import { armLetter, armVersion, dateWords, metricName, share, surfacesInWords } from '../../../_components/experiments/experiment-words';
import { StateBadge } from '../../../_components/experiments/experiments-section';
import { offeringsOf } from '../../../_components/experiments/new-experiment-form';
import { ExperimentWinner } from '../../../_components/experiments/experiment-winner';
import { PausedArms, PausedBadge } from '../../../_components/experiments/paused-arms';
import { ResultsPanel } from '../../../_components/experiments/results-panel';

export default function ExperimentPage() {
  const { bookId, experimentId } = useParams<{ bookId: string; experimentId: string }>();
  const book = useBook(bookId);
  const experiment = useExperiment(bookId, experimentId);
  const permissions = useBookPermissions(book.data?.projectId);

  return (
    <>
      <p style={{ marginTop: 0 }}>
        <IntentLink href={`/portal/books/${bookId}#experiments`}>← {book.data ? `${book.data.name}: experiments` : 'The price book'}</IntentLink>
      </p>
      {book.isPending || experiment.isPending || permissions.isPending ? (
        <Loading what="the experiment" />
      ) : book.isError || experiment.isError ? (
        <>
          <h1>Experiment</h1>
          <ErrorMessage error={book.error ?? experiment.error} />
        </>
      ) : (
        <ExperimentView book={book.data} experiment={experiment.data} canPublish={permissions.canPublish} />
      )}
    </>
  );
}

function ExperimentView({ book, experiment, canPublish }: { book: BookDetail; experiment: Experiment; canPublish: boolean }) {
  const id = useId();
  // Offerings by their names, as the published version (or the newest) calls them.
  const named = useBookVersion(book.id, experiment.offeringIds ? (book.publications[experiment.environment]?.versionId ?? book.versions[0]?.id) : undefined);
  const labels = offeringsOf(named.data?.artifact);
  const offerings = experiment.offeringIds?.map((o) => labels.find((l) => l.id === o)?.label ?? o);
  return (
    <>
      <header style={{ marginBottom: '1rem' }}>
        <h1 style={{ marginBottom: '0.25rem', overflowWrap: 'anywhere' }}>{experiment.name}</h1>
        <div className="row">
          <span data-testid="experiment-state">
            <StateBadge state={experiment.state} />
          </span>
          <EnvironmentBadge environment={experiment.environment} />
          <span className="muted">on {book.name}</span>
        </div>
      </header>

      <ExperimentWinner book={book} experiment={experiment} />

      <dl className="facts" aria-label="About the experiment">
        <dt>Judged by</dt>
        <dd>{metricName(experiment.primaryMetric)}</dd>
        <dt>Quotes taking part</dt>
        <dd>{offerings ? `Only ${offerings.join(', ')}` : 'Every offering'}</dd>
        <dt>Where they come from</dt>
        <dd>{surfacesInWords(experiment.surfaces)}</dd>
        <dt>Created</dt>
        <dd>{dateWords(experiment.createdAt)}</dd>
        <dt>Started</dt>
        <dd>{dateWords(experiment.startedAt)}</dd>
        <dt>Stopped</dt>
        <dd>{dateWords(experiment.stoppedAt)}</dd>
        {experiment.concludedAt && (
          <>
            <dt>Concluded</dt>
            <dd>{dateWords(experiment.concludedAt)}</dd>
          </>
        )}
      </dl>

      <section aria-labelledby={`${id}-arms`}>
        <h2 id={`${id}-arms`}>Versions and shares of customers</h2>
        <table className="cards" aria-label="Versions in the experiment">
          <TableHead columns={['Name', 'Version', 'Share of customers']} />
          <tbody>
            {experiment.arms.map((arm) => (
              <tr key={arm.name}>
                <td data-label="Name">
                  <strong>{armLetter(arm.name)}</strong>
                  {arm.name === 'control' ? ' · control' : ''} <PausedBadge arm={arm} />
                  {experiment.winner?.arm === arm.name && <span className="badge ok">Winner</span>}
                </td>
                <td data-label="Version">{armVersion(book, experiment, arm)}</td>
                <td data-label="Share">
                  {share(arm)}
                  {arm.pausedAt && <span className="muted"> · quoted A’s prices since the pause</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted" style={{ fontSize: '0.9rem' }}>
          A is the control: the version {experiment.environment === 'live' ? 'Live' : 'Test'} publishes
          {experiment.state === 'draft' ? ' when the experiment starts' : ', fixed when the experiment started'}. Each customer always gets the same version.
        </p>
        <PausedArms book={book} experiment={experiment} />
      </section>

      <ExperimentActions book={book} experiment={experiment} canPublish={canPublish} />
      <ResultsPanel book={book} experiment={experiment} canPublish={canPublish} />
    </>
  );
}
