'use client';

import { ENVIRONMENT_LABEL } from '../../../../_components/ui';
import type { BookDetail } from '../book-queries';
import type { Experiment } from './experiment-queries';
import { armLetter, armVersion, dateWords, pausedArms, pauseReasonWords } from './experiment-words';

/** The badge on a paused arm's row (its name cell). */
export function PausedBadge({ arm }: { arm: Experiment['arms'][number] }) {
  return arm.pausedAt ? <span className="badge danger">Paused</span> : null;
}

/**
 * Each arm the acceptance guardrail paused: since when, why (the guardrail's sentence, in the
 * page's letters), and what its customers get now: the control's prices. A pause is not undone.
 */
export function PausedArms({ book, experiment }: { book: BookDetail; experiment: Experiment }) {
  const paused = pausedArms(experiment);
  const control = experiment.arms.find((a) => a.name === 'control');
  if (paused.length === 0) return null;
  const env = ENVIRONMENT_LABEL[experiment.environment];
  const ended = experiment.state !== 'running';
  const endedAt = Date.parse(experiment.concludedAt ?? experiment.stoppedAt ?? '') || Infinity;
  const controlPrices = `A’s prices (the control${control ? `, ${armVersion(book, experiment, control)}` : ''})`;
  return (
    <div className="warning" data-testid="paused-arms">
      {paused.map((arm) => {
        const letter = armLetter(arm.name);
        const at = Date.parse(arm.pausedAt);
        // The pause takes effect a minute after the guardrail fires: it may be ahead, or the experiment may have ended first.
        const [when, then] = ended
          ? at >= endedAt
            ? ['was to be paused on', `The experiment ended before that: ${letter} kept its customers to the end.`]
            : ['was paused on', `From then until the experiment ended, the customers in ${env} who would get ${letter} were quoted ${controlPrices}.`]
          : at > Date.now()
            ? ['is paused from', `From then on, the customers in ${env} who would get ${letter} are quoted ${controlPrices}.`]
            : ['was paused on', `Since then, the customers in ${env} who would get ${letter} are quoted ${controlPrices}.`];
        return (
          <p key={arm.name} style={{ marginTop: 0 }}>
            <strong>
              {letter} ({armVersion(book, experiment, arm)}) {when} {dateWords(arm.pausedAt)}
            </strong>{' '}
            by the guardrail on acceptance: {arm.pauseReason ? pauseReasonWords(arm.pauseReason) : 'its customers accepted too few quotes compared with A'}. {then}{' '}
            Quotes {letter} gave before keep their price and still count in its results.
          </p>
        );
      })}
      <p className="muted" style={{ marginBottom: 0, fontSize: '0.9rem' }}>
        A paused version is not started again: {ended ? 'create a new experiment to try it again.' : 'stop the experiment, or create a new one to try it again.'}
      </p>
    </div>
  );
}
