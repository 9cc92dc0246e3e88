'use client';

import { IntentLink } from '../../../../../_components/intent-link';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { AskAnAdmin } from '../../../../_components/ask-an-admin';
import { TableHead } from '../../../../_components/table-head';
import { ENVIRONMENT_LABEL, ENVIRONMENTS, ErrorMessage, Loading } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import { useExperiments, type Experiment } from './experiment-queries';
import { armTitle, dateWords, share, STATE_WORDS } from './experiment-words';
import { NewExperimentForm } from './new-experiment-form';
import styles from './experiments.module.css';

/** The book's experiments, Test and Live apart, and a new one for members allowed to publish. */
export function ExperimentsSection({ book, canPublish }: { book: BookDetail; canPublish: boolean }) {
  const id = useId();
  const router = useRouter();
  const experiments = useExperiments(book.id);
  const [creating, setCreating] = useState(false);

  return (
    <section aria-labelledby={`${id}-heading`} id="experiments">
      <h2 id={`${id}-heading`}>Experiments</h2>
      <p className="muted" style={{ marginTop: 0 }}>
        Try other versions of this book on a share of your customers, next to the published one, and see which brings more.
      </p>
      {canPublish ? (
        !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)} disabled={book.versions.length < 2}>
            New experiment
          </button>
        )
      ) : (
        <p className="notice">
          Creating, starting and stopping experiments is for workspace members allowed to publish price books. <AskAnAdmin />
        </p>
      )}
      {canPublish && book.versions.length < 2 && (
        <p className="muted">An experiment compares versions: create a second version of this book first.</p>
      )}
      {creating && (
        <NewExperimentForm
          book={book}
          onCancel={() => setCreating(false)}
          onCreated={(experiment) => router.push(`/portal/books/${book.id}/experiments/${experiment.id}`)}
        />
      )}
      {experiments.isPending ? (
        <Loading what="the experiments" />
      ) : experiments.isError ? (
        <ErrorMessage error={experiments.error} />
      ) : experiments.data.length === 0 ? (
        <p className="muted card" style={{ marginTop: '1rem' }} data-testid="no-experiments">
          No experiments on this book yet.
        </p>
      ) : (
        ENVIRONMENTS.map((environment) => (
          <ExperimentList key={environment} book={book} environment={environment} experiments={experiments.data.filter((e) => e.environment === environment)} />
        ))
      )}
    </section>
  );
}

function ExperimentList({ book, environment, experiments }: { book: BookDetail; environment: 'test' | 'live'; experiments: Experiment[] }) {
  const label = ENVIRONMENT_LABEL[environment];
  return (
    <>
      <h3>In {label}</h3>
      {experiments.length === 0 ? (
        <p className="muted card">No experiments in {label} yet.</p>
      ) : (
        <table className="cards" aria-label={`Experiments in ${label}`}>
          <TableHead columns={['Name', 'State', 'Versions and shares', 'Started', 'Stopped']} />
          <tbody>
            {experiments.map((e) => (
              <tr key={e.id}>
                <td data-label="Name">
                  <IntentLink href={`/portal/books/${book.id}/experiments/${e.id}`}>{e.name}</IntentLink>
                </td>
                <td data-label="State">
                  <StateBadge state={e.state} />
                </td>
                <td data-label="Versions">
                  <ul style={{ margin: 0, paddingLeft: '1rem' }}>
                    {e.arms.map((arm) => (
                      <li key={arm.name}>
                        {armTitle(book, e, arm)}: <strong>{share(arm)}</strong>
                        {arm.pausedAt && ' · paused'}
                        {e.winner?.arm === arm.name && ' · winner'}
                      </li>
                    ))}
                  </ul>
                </td>
                <td data-label="Started">{dateWords(e.startedAt)}</td>
                <td data-label="Stopped">{dateWords(e.stoppedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function StateBadge({ state }: { state: Experiment['state'] }) {
  const words = STATE_WORDS[state];
  return <span className={words.running ? `badge ${styles.running}` : 'badge'}>{words.label}</span>;
}

/** The book header's link to its experiments, saying when one is running (it changes what customers are quoted). */
export function ExperimentsLink({ bookId }: { bookId: string }) {
  const running = (useExperiments(bookId).data ?? []).filter((e) => e.state === 'running');
  return (
    <a href="#experiments">
      Experiments
      {running.length > 0 && ` (running in ${running.map((e) => (e.environment === 'live' ? 'Live' : 'Test')).join(' and ')})`}
    </a>
  );
}
