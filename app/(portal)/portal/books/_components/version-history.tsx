'use client';

import { useId, useState } from 'react';
import { ENVIRONMENT_LABEL, ENVIRONMENTS, EnvironmentBadge, ErrorMessage, formatTime } from '../../../_components/ui';
import { TableHead } from '../../../_components/table-head';
import { usePublish, type BookDetail, type EnvironmentKind } from './book-queries';
import { PublishLiveDialog, type LivePublishRequest } from './impact/publish-live-dialog';
import { AskAnAdmin } from '../../../_components/ask-an-admin';
import { useExperiments } from './experiments/experiment-queries';
import { IntentLink } from '../../../../_components/intent-link';

type PublishRequest = { versionId: string; number: number; environment: EnvironmentKind };

/** Every version, newest first, where each is published, and publishing to Test or Live. */
export function VersionHistory({ book, canPublish }: { book: BookDetail; canPublish: boolean }) {
  const id = useId();
  const publish = usePublish(book.id);
  // An experiment running in an environment holds its publication (the service refuses 409): say so up front.
  const experiments = useExperiments(book.id);
  const runningIn = (e: EnvironmentKind) => experiments.data?.find((x) => x.state === 'running' && x.environment === e);
  const held = ENVIRONMENTS.flatMap((e) => {
    const running = runningIn(e);
    return running ? [{ environment: e, experiment: running }] : [];
  });
  const [confirmingLive, setConfirmingLive] = useState<LivePublishRequest | null>(null);
  const [published, setPublished] = useState<PublishRequest | null>(null);
  const liveNumber = book.publications.live?.number;

  const send = (request: PublishRequest, shown: { impactAsOf?: string; confirmation?: string } = {}) => {
    setPublished(null);
    publish.mutate({ versionId: request.versionId, environment: request.environment, ...shown }, { onSuccess: () => setPublished(request) });
  };
  const ask = (request: PublishRequest) => (request.environment === 'live' ? setConfirmingLive(request) : send(request));

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Versions</h2>
      {book.versions.length === 0 ? (
        <p className="muted card">No versions yet. Save the draft and create the first version from it.</p>
      ) : (
        <>
          {!canPublish && (
            <p className="muted">
              Publishing is for workspace members allowed to publish price books. <AskAnAdmin />
            </p>
          )}
          {canPublish &&
            held.map(({ environment, experiment }) => (
              <p key={environment} className="notice" id={`${id}-held-${environment}`} data-testid={`publish-held-${environment}`}>
                The experiment “{experiment.name}” is running in {ENVIRONMENT_LABEL[environment]}: its customers are quoted its versions, so publishing
                to {ENVIRONMENT_LABEL[environment]} waits until you stop it or promote the version that should win.{' '}
                <IntentLink href={`/portal/books/${book.id}/experiments/${experiment.id}`}>Open the experiment</IntentLink>
              </p>
            ))}
          <table className="cards" aria-label="Version history">
            <TableHead columns={['Version', 'Created', 'Hash', 'Published to', canPublish && 'Publish']} />
            <tbody>
              {book.versions.map((v) => {
                const environments = ENVIRONMENTS.filter((e) => book.publications[e]?.versionId === v.id);
                return (
                  <tr key={v.id} aria-label={`Version ${v.number}`}>
                    <td data-label="Version">
                      <strong>v{v.number}</strong>
                    </td>
                    <td data-label="Created">
                      <div>{formatTime(v.createdAt)}</div>
                      <div className="muted" style={{ fontSize: '0.85rem', overflowWrap: 'anywhere' }}>
                        {v.createdBy ? `by ${v.createdBy}` : 'by the system'}
                      </div>
                    </td>
                    <td data-label="Hash">
                      <code title={`sha256 ${v.artifactHash}`}>{v.artifactHash.slice(0, 12)}</code>
                    </td>
                    <td data-label="Published to" data-testid="published-to">
                      {environments.length === 0 ? (
                        <span className="muted">not published</span>
                      ) : (
                        <span className="row">
                          {environments.map((e) => (
                            <EnvironmentBadge key={e} environment={e} />
                          ))}
                        </span>
                      )}
                    </td>
                    {canPublish && (
                      <td>
                        <span className="row" style={{ flexWrap: 'nowrap' }}>
                          {environments.length === ENVIRONMENTS.length && <span className="muted">—</span>}
                          {ENVIRONMENTS.filter((e) => !environments.includes(e)).map((e) => (
                            <button
                              key={e}
                              type="button"
                              disabled={publish.isPending || runningIn(e) !== undefined}
                              aria-describedby={runningIn(e) ? `${id}-held-${e}` : undefined}
                              onClick={() => ask({ versionId: v.id, number: v.number, environment: e })}
                              style={{ whiteSpace: 'nowrap' }}
                            >
                              Publish to {ENVIRONMENT_LABEL[e]}
                            </button>
                          ))}
                        </span>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      <div aria-live="polite">
        {publish.isError && <ErrorMessage error={publish.error} />}
        {published && (
          <p className="notice">
            Version {published.number} is now published to {ENVIRONMENT_LABEL[published.environment]}
            {published.environment === 'live' ? ': new quotes for your customers use it.' : ': Test API keys quote with it.'}
          </p>
        )}
      </div>
      <PublishLiveDialog
        bookId={book.id}
        request={confirmingLive}
        liveNumber={liveNumber}
        onCancel={() => setConfirmingLive(null)}
        onPublish={({ versionId, ...shown }) => {
          if (confirmingLive) send({ versionId, number: confirmingLive.number, environment: 'live' }, shown);
          setConfirmingLive(null);
        }}
      />
    </section>
  );
}
