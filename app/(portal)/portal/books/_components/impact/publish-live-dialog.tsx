'use client';

import { useEffect, useId, useState } from 'react';
import { confirmationPhrase } from '@/lib/books/confirmation-phrase';
import { ErrorMessage } from '../../../../_components/ui';
import { ConfirmDialog } from '../../../../_components/confirm-dialog';
import { GuardNote, ImpactCounts, ImpactProgress, ImpactScope } from './impact-figures';
import styles from './impact.module.css';
import { useImpactRun } from './use-impact-run';

export type LivePublishRequest = { versionId: string; number: number };

/**
 * "Publish v3 to Live?" with what it would do to the last 7 days of Live quotes. When the
 * business's safeguard says the change is large, the member types the phrase to go ahead; the
 * figures shown travel with the request, and the publication's record keeps them.
 */
export function PublishLiveDialog({
  bookId,
  request,
  liveNumber,
  onCancel,
  onPublish,
}: {
  bookId: string;
  request: LivePublishRequest | null;
  liveNumber: number | undefined;
  onCancel: () => void;
  onPublish: (input: { versionId: string; impactAsOf?: string; confirmation?: string }) => void;
}) {
  const id = useId();
  const { state, run } = useImpactRun(bookId);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (!request) return;
    setTyped('');
    void run({ versionId: request.versionId, environment: 'live', window: '7d' });
  }, [request, run]);

  const impact = state.status === 'done' ? state.result.impact : null;
  const phrase = request ? confirmationPhrase(request.number) : '';
  const needsPhrase = impact?.guard.requiresConfirmation === true;
  const phraseTyped = typed.trim().replace(/\s+/g, ' ').toLowerCase() === phrase;

  return (
    <ConfirmDialog
      open={request !== null}
      title={`Publish version ${request?.number ?? ''} to Live?`}
      confirmLabel={`Publish v${request?.number ?? ''} to Live`}
      confirmDisabled={state.status === 'running' || (needsPhrase && !phraseTyped)}
      onCancel={onCancel}
      onConfirm={() => {
        if (!request) return;
        onPublish({
          versionId: request.versionId,
          ...(impact ? { impactAsOf: impact.window.to } : {}),
          ...(needsPhrase ? { confirmation: typed } : {}),
        });
      }}
    >
      <p>
        From now on every new quote your customers get — on the hosted quote page, through public quotes and with Live API keys — is priced with
        version {request?.number}
        {liveNumber ? ` instead of version ${liveNumber}` : ''}. Quotes already given keep their price.
      </p>
      <h3 style={{ marginBottom: 0 }}>What it does to the last 7 days of Live quotes</h3>
      {state.status === 'running' && <ImpactProgress progress={state.progress} />}
      {state.status === 'error' && (
        <>
          <ErrorMessage error={state.error} />
          <p className="muted">You can still publish: the service measures the impact itself and keeps it with the publication.</p>
        </>
      )}
      {impact &&
        (impact.quotes === 0 ? (
          <p className="muted" data-testid="publish-impact-empty">
            There were no Live quotes in the last 7 days, so no customer&apos;s price can be compared yet.
          </p>
        ) : (
          <div data-testid="publish-impact">
            <ImpactScope impact={impact} window="7d" />
            <ImpactCounts impact={impact} />
            <GuardNote impact={impact} />
          </div>
        ))}
      {needsPhrase && (
        <div className={`field ${styles.confirmField}`}>
          <label htmlFor={`${id}-phrase`}>
            Type <code>{phrase}</code> to publish
          </label>
          <input id={`${id}-phrase`} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
        </div>
      )}
      <p className="muted">You can publish an earlier version again at any time.</p>
    </ConfirmDialog>
  );
}
