'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { HttpStatus } from '../../../_components/http-status';
import { formatTime } from '../../../_components/ui';
import type { QuoteTrace } from './use-quote-trace';

/** What the customer asked for: the offering and each answer, `null` meaning "unknown". */
export function QuoteInputs({ inputs, artifact }: { inputs: QuoteTrace['quoteIntent']['inputs']; artifact?: unknown }) {
  const answers = Object.entries(inputs.factors);
  const book = labelsOfArtifact(artifact);
  const offering = book.offerings.get(inputs.offeringId);
  return (
    <dl className="facts" aria-label="Inputs">
      <dt>Offering</dt>
      <dd>
        <Named label={offering} id={inputs.offeringId} />
      </dd>
      {answers.length === 0 ? (
        <>
          <dt>Answers</dt>
          <dd className="muted">none given</dd>
        </>
      ) : (
        answers.map(([factorId, optionId]) => {
          const factor = book.factors.get(factorId);
          return (
            <div key={factorId} style={{ display: 'contents' }}>
              <dt>
                <Named label={factor?.label} id={factorId} />
              </dt>
              <dd>
                {optionId === null ? (
                  <span className="muted">
                    not sure{factor?.assumed ? `, assumed “${factor.options.get(factor.assumed) ?? factor.assumed}”` : ''}
                  </span>
                ) : (
                  <Named label={factor?.options.get(optionId)} id={optionId} />
                )}
              </dd>
            </div>
          );
        })
      )}
    </dl>
  );
}

/** A label people read, with the id the API uses beside it; the id alone until the version has loaded. */
function Named({ label, id }: { label: string | undefined; id: string }) {
  return label ? (
    <>
      {label} <code className="muted">{id}</code>
    </>
  ) : (
    <code>{id}</code>
  );
}

type ArtifactLabels = {
  offerings: Map<string, string>;
  /** `assumed`: the answer "not sure" is priced as, when the book says so. */
  factors: Map<string, { label: string; options: Map<string, string>; assumed: string | null }>;
};

/** Labels of a pinned version's offerings, questions and answers (read defensively: any JSON). */
function labelsOfArtifact(artifact: unknown): ArtifactLabels {
  const labels: ArtifactLabels = { offerings: new Map(), factors: new Map() };
  const book = artifact as {
    offerings?: { id?: unknown; label?: unknown }[];
    factors?: { id?: unknown; label?: unknown; options?: { id?: unknown; label?: unknown }[]; whenUnknown?: { action?: unknown; optionId?: unknown } }[];
  } | null;
  for (const o of Array.isArray(book?.offerings) ? book.offerings : []) {
    if (typeof o?.id === 'string' && typeof o.label === 'string') labels.offerings.set(o.id, o.label);
  }
  for (const f of Array.isArray(book?.factors) ? book.factors : []) {
    if (typeof f?.id !== 'string' || typeof f.label !== 'string') continue;
    const options = new Map<string, string>();
    for (const o of Array.isArray(f.options) ? f.options : []) if (typeof o?.id === 'string' && typeof o.label === 'string') options.set(o.id, o.label);
    const assumed = f.whenUnknown?.action === 'assume' && typeof f.whenUnknown.optionId === 'string' ? f.whenUnknown.optionId : null;
    labels.factors.set(f.id, { label: f.label, options, assumed });
  }
  return labels;
}

/** The immutable book version the price came from; every quote pins one. */
export function PinnedBookVersion({ book, version }: { book: QuoteTrace['book']; version: QuoteTrace['bookVersion'] }) {
  return (
    <>
      <dl className="facts" aria-label="Book version">
        <dt>Book</dt>
        <dd>{book.name}</dd>
        <dt>Version</dt>
        <dd>{version ? `v${version.number}` : <span className="muted">none: nothing was published here when the quote was asked for</span>}</dd>
        {version && (
          <>
            <dt>Hash</dt>
            <dd className="mono" style={{ fontSize: '0.8rem' }}>
              {version.artifactHash}
            </dd>
          </>
        )}
      </dl>
      <p style={{ marginBottom: 0 }}>
        <IntentLink href={`/portal/books/${book.id}`}>Open the book</IntentLink>
      </p>
    </>
  );
}

/** The experiment arm that priced the quote (receipt format 2): why this version and not the publication. */
export function ExperimentArm({ experiment }: { experiment: QuoteTrace['experiment'] }) {
  if (!experiment) return null;
  return (
    <p data-testid="trace-experiment">
      Priced by experiment {experiment.name === null ? <code>{experiment.id}</code> : `‘${experiment.name}’`}, arm <code>{experiment.arm}</code> (bucket{' '}
      {experiment.bucket} of {experiment.buckets})
    </p>
  );
}

/** The API call that created the quote, and the way back to it in the request log. */
export function CreatingRequest({ request, requestId, canSearchLog }: { request: QuoteTrace['request']; requestId: string; canSearchLog: boolean }) {
  const inLog = `/portal/request-logs?requestId=${encodeURIComponent(requestId)}`;
  if (!request) {
    return (
      <p className="muted" style={{ margin: 0 }}>
        The request log has no entry for request <span className="mono">{requestId}</span> yet.{' '}
        {canSearchLog && <IntentLink href={inLog}>Search the request log</IntentLink>}
      </p>
    );
  }
  return (
    <>
      <dl className="facts" aria-label="Request">
        <dt>Request</dt>
        <dd className="mono">
          {request.method} {request.path}
        </dd>
        <dt>Status</dt>
        <dd>
          <HttpStatus status={request.status} />
        </dd>
        <dt>Latency</dt>
        <dd>{request.latencyMs} ms</dd>
        <dt>Time</dt>
        <dd>{formatTime(request.createdAt)}</dd>
        <dt>Request id</dt>
        <dd className="mono">{request.requestId}</dd>
        <dt>API key id</dt>
        <dd className="mono">{request.apiKeyId ?? <span className="muted">none ({request.principal})</span>}</dd>
      </dl>
      {canSearchLog && (
        <p style={{ marginBottom: 0 }}>
          <IntentLink href={inLog}>Show in the request log</IntentLink>
        </p>
      )}
    </>
  );
}
