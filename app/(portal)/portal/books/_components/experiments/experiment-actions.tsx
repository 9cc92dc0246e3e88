'use client';

import { IntentLink } from '../../../../../_components/intent-link';
import { useEffect, useRef, useState } from 'react';
import { AskAnAdmin } from '../../../../_components/ask-an-admin';
import { ConfirmDialog } from '../../../../_components/confirm-dialog';
import { ENVIRONMENT_LABEL, ErrorMessage } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import { useExperimentAction, useExperiments, type Experiment } from './experiment-queries';
import { armLetter, armVersion, share } from './experiment-words';
import styles from './experiments.module.css';
import { StartRefusal } from './start-refusal';

/** "40% of customers in Live see version 2’s prices (B)", one phrase an arm besides the control. */
function variantPhrases(book: BookDetail, experiment: Experiment, who: string): string {
  return experiment.arms
    .filter((a) => a.name !== 'control')
    .map((a) => `${share(a)} of ${who} see ${armVersion(book, experiment, a).replace(/^v/, 'version ')}’s prices (${armLetter(a.name)})`)
    .join(', ');
}

/** Start a draft, or stop a running experiment: each asks once, in a dialog a keyboard works. */
export function ExperimentActions({ book, experiment, canPublish }: { book: BookDetail; experiment: Experiment; canPublish: boolean }) {
  const start = useExperimentAction(book.id, experiment.id, 'start');
  // One experiment runs per book and environment: another running one keeps this draft waiting.
  const experiments = useExperiments(book.id);
  const running = experiments.data?.find((e) => e.id !== experiment.id && e.environment === experiment.environment && e.state === 'running');
  const stop = useExperimentAction(book.id, experiment.id, 'stop');
  const [asking, setAsking] = useState<'start' | 'stop' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The button that was pressed goes away with the state it belonged to: focus goes to what happened.
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);
  const env = ENVIRONMENT_LABEL[experiment.environment];
  const control = experiment.arms.find((a) => a.name === 'control');
  const published = book.publications[experiment.environment];
  const who = experiment.environment === 'live' ? 'customers' : 'Test quotes';

  if (!canPublish) {
    if (experiment.state !== 'draft' && experiment.state !== 'running') return null;
    return (
      <p className="notice">
        Starting and stopping experiments is for workspace members allowed to publish price books. <AskAnAdmin />
      </p>
    );
  }
  const act = (action: typeof start, message: string) => {
    setAsking(null);
    setDone(null);
    action.mutate(undefined, { onSuccess: () => setDone(message) });
  };

  return (
    <>
      <div className={styles.actions}>
        {experiment.state === 'draft' && (
          <button type="button" className="primary" onClick={() => setAsking('start')} disabled={start.isPending || experiments.isPending || !published || running !== undefined}>
            {start.isPending ? 'Starting…' : 'Start…'}
          </button>
        )}
        {experiment.state === 'running' && (
          <button type="button" className="danger" onClick={() => setAsking('stop')} disabled={stop.isPending}>
            {stop.isPending ? 'Stopping…' : 'Stop…'}
          </button>
        )}
        {experiment.state === 'draft' && !published && <span className="muted">Publish a version to {env} first: it is the control.</span>}
        {experiment.state === 'draft' && published && running && (
          <span className="muted" data-testid="start-waits">
            “<IntentLink href={`/portal/books/${book.id}/experiments/${running.id}`}>{running.name}</IntentLink>” is running in {env}: stop it before starting this one.
          </span>
        )}
      </div>
      <div aria-live="polite">
        {start.isError && <StartRefusal error={start.error} book={book} experiment={experiment} running={running} />}
        {stop.isError && <ErrorMessage error={stop.error} />}
        {done && (
          <p ref={doneRef} className="success" role="status" tabIndex={-1}>
            {done}
          </p>
        )}
      </div>

      <ConfirmDialog
        open={asking === 'start'}
        title={`Start “${experiment.name}” in ${env}?`}
        confirmLabel="Start experiment"
        onCancel={() => setAsking(null)}
        onConfirm={() => act(start, `The experiment is running: ${who} in ${env} are now shared between the versions.`)}
      >
        <p data-testid="start-sentence">
          From now on, {variantPhrases(book, experiment, `${who} in ${env}`)}; the other {control ? share(control) : 'share'} keep the prices of version{' '}
          {published?.number ?? '?'}, published now (A).
        </p>
        {experiment.environment === 'live' && <p className="warning">These are real customers: the prices they are quoted are the prices they pay.</p>}
        <p className="muted">
          Each customer always gets the same version{experiment.offeringIds ? ', and only the chosen offerings take part' : ''}. Quotes already given keep
          their price. You can stop at any time.
        </p>
      </ConfirmDialog>

      <ConfirmDialog
        open={asking === 'stop'}
        title={`Stop “${experiment.name}”?`}
        confirmLabel="Stop experiment"
        onCancel={() => setAsking(null)}
        onConfirm={() => act(stop, `The experiment is stopped: every quote in ${env} is priced with the publication again.`)}
      >
        <p>
          Every new quote in {env} is priced with {published ? `version ${published.number}, the publication,` : 'the publication'} again. Quotes already given
          keep their price, and the results stay here.
        </p>
        <p className="muted">A stopped experiment cannot be started again: create a new one to try again.</p>
      </ConfirmDialog>
    </>
  );
}
