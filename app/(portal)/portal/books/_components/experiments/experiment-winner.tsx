'use client';

import { useEffect, useId, useRef } from 'react';
import { ENVIRONMENT_LABEL } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import type { Experiment } from './experiment-queries';
import { armLetter, dateWords } from './experiment-words';
import styles from './experiments.module.css';

/**
 * How a concluded experiment ended: the arm kept, the version that made published, and when; and
 * whether the environment still publishes it. Takes focus when the experiment concludes while the
 * page is open (a promotion made here): the button pressed went away with the state it belonged to.
 */
export function ExperimentWinner({ book, experiment }: { book: BookDetail; experiment: Experiment }) {
  const id = useId();
  const ref = useRef<HTMLElement>(null);
  const seen = useRef(experiment.state);
  useEffect(() => {
    if (experiment.state === 'concluded' && seen.current !== 'concluded') ref.current?.focus();
    seen.current = experiment.state;
  }, [experiment.state]);
  const winner = experiment.winner;
  if (experiment.state !== 'concluded' || !winner) return null;
  const env = ENVIRONMENT_LABEL[experiment.environment];
  const letter = armLetter(winner.arm);
  const number = book.versions.find((v) => v.id === winner.versionId)?.number;
  const version = number === undefined ? 'its version' : `version ${number}`;
  const published = book.publications[experiment.environment];
  const when = dateWords(experiment.concludedAt);
  return (
    <section ref={ref} tabIndex={-1} aria-labelledby={`${id}-heading`} className={`card ${styles.outcome}`} data-testid="experiment-winner">
      <h2 id={`${id}-heading`}>Outcome</h2>
      {winner.arm === 'control' ? (
        <p>
          <strong>
            A, the control{number === undefined ? '' : ` (v${number})`}, was kept
          </strong>{' '}
          on {when}. Nothing new was published: the experiment ended and every quote in {env} is priced with the publication.
        </p>
      ) : (
        <p>
          <strong>
            {letter}
            {number === undefined ? '' : ` (v${number})`} won.
          </strong>{' '}
          {version[0].toUpperCase() + version.slice(1)} was published to {env} on {when}, and the experiment ended: every customer in {env} gets its prices.
        </p>
      )}
      {published && published.versionId !== winner.versionId && winner.arm !== 'control' && (
        <p className="muted">
          {env} has been given version {published.number} since.
        </p>
      )}
    </section>
  );
}
